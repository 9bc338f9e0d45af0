/**
 * Proxy settings users still copy from old answers that Istio no longer reads (DOMAIN §2).
 * kube-graceful never writes them and leaves them in place (they are the user's): it says so.
 */
import type { ProposedFinding } from '../types.ts';
import type { Workload } from '../../workloads/workload.ts';
import { envEntry } from './env.ts';
import { PROXY_CONFIG_ANNOTATION } from '../shared/proxyConfig.ts';

/** Returns an info finding for each obsolete drain setting on the proxy container or in its ProxyConfig fields. */
export function obsoleteSettings(workload: Workload, container: string, proxyConfig: Readonly<Record<string, unknown>>): ProposedFinding[] {
  const findings: ProposedFinding[] = [];
  if (envEntry(workload, container, 'TERMINATION_DRAIN_DURATION_SECONDS')) {
    findings.push({
      severity: 'info',
      code: 'GATEWAY_OBSOLETE_SETTING',
      message: `env TERMINATION_DRAIN_DURATION_SECONDS on container ${container} was removed in Istio 1.10 and does nothing; remove it (DOMAIN §2).`,
      path: workload.containerAt(container, 'env', { key: 'name', equals: 'TERMINATION_DRAIN_DURATION_SECONDS' }),
    });
  }
  if (proxyConfig['parentShutdownDuration'] !== undefined) {
    findings.push({
      severity: 'info',
      code: 'GATEWAY_OBSOLETE_SETTING',
      message: `parentShutdownDuration in ${PROXY_CONFIG_ANNOTATION} is ignored since Istio 1.17; remove it (DOMAIN §2).`,
      path: workload.at('metadata', 'annotations', PROXY_CONFIG_ANNOTATION),
    });
  }
  return findings;
}
