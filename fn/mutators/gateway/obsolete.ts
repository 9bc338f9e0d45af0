/**
 * Proxy settings users still copy from old answers that Istio no longer reads
 * (docs/background.md#istio). kube-graceful never writes them and leaves them in place (they are
 * the user's): it says so.
 */
import type { ProposedFinding } from '../types.ts';
import type { Workload } from '../../workloads/workload.ts';
import { envEntry } from '../shared/env.ts';
import { PROXY_CONFIG_ANNOTATION } from '../../workloads/istioProxyConfig.ts';
import { parentShutdownEnforced } from '../shared/parentShutdown.ts';
import type { IstioVersion } from './version.ts';
import { ISTIO } from '../../facts/versionGates.ts';

/**
 * Returns an info finding for each obsolete drain setting on the proxy container or in its
 * ProxyConfig fields.
 */
export function obsoleteSettings(
  workload: Workload,
  container: string,
  proxyConfig: Readonly<Record<string, unknown>>,
  istio: IstioVersion,
): ProposedFinding[] {
  const findings: ProposedFinding[] = [];
  if (envEntry(workload, container, 'TERMINATION_DRAIN_DURATION_SECONDS')) {
    findings.push({
      severity: 'info',
      code: 'GATEWAY_OBSOLETE_SETTING',
      message:
        `env TERMINATION_DRAIN_DURATION_SECONDS on container ${container} was removed in ` +
        `Istio 1.10 and does nothing; remove it.`,
      path: workload.containerAt(container, 'env', {
        key: 'name',
        equals: 'TERMINATION_DRAIN_DURATION_SECONDS',
      }),
    });
  }
  // Only where the version is known to ignore it: up to 1.16 (or unknown) it is what keeps the
  // pod valid next to a long drainDuration (parentShutdown.ts).
  if (proxyConfig['parentShutdownDuration'] !== undefined && !parentShutdownEnforced(istio)) {
    findings.push({
      severity: 'info',
      code: 'GATEWAY_OBSOLETE_SETTING',
      message:
        `parentShutdownDuration in ${PROXY_CONFIG_ANNOTATION} is ignored from Istio ` +
        `${ISTIO.parentShutdownIgnored.since} (pkg/config/validation/validation.go@1.17.0 ` +
        `validates drainDuration alone; ` +
        `pkg/envoy/proxy.go@1.17.0 no longer passes it to Envoy), ` +
        `and this proxy is Istio ${istio.version} (${istio.source}); remove it.`,
      path: workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION),
    });
  }
  return findings;
}
