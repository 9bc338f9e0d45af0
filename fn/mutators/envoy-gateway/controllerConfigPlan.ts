import { formatPath } from '../../core/fieldPath.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { kubeObjectRef } from '../../timing/kubeObject.ts';
import type { MutatorOutcome, ObjectMutatorContext } from '../types.ts';
import {
  DEFAULT_SPEC,
  CONTROLLER_CONFIG_KEY,
  CONTROLLER_CONFIG_PATH,
  editControllerConfig,
  readControllerConfig,
} from './controllerConfig.ts';
import type { EnvoyGatewayPlan } from './plan.ts';
import { planSpec } from './specPlan.ts';

/**
 * Envoy Gateway's config in a ConfigMap: its default EnvoyProxy spec planned like an EnvoyProxy's,
 * the fields set inside the embedded text (./controllerConfig.ts). Any other ConfigMap, and a
 * config without a default spec, is left alone: `envoyProxy` is never added (releases before
 * v1.7.0 would drop it silently).
 */
export function planControllerConfig(
  configMap: KubeObject,
  context: ObjectMutatorContext,
): MutatorOutcome<EnvoyGatewayPlan> {
  const read = readControllerConfig(configMap);
  if (read.state === 'none') return { changes: [], findings: [] };
  if (read.state === 'unreadable')
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'EG_CONTROLLER_CONFIG_UNREADABLE',
          message:
            `ConfigMap ${kubeObjectRef(configMap)}: the Envoy Gateway config in ` +
            `data.${CONTROLLER_CONFIG_KEY} cannot be read: ${read.problem}. Its default ` +
            `EnvoyProxy spec (envoyProxy) is neither checked nor set; Envoy Gateway will not ` +
            `start with it either (internal/envoygateway/config/decoder.go@v1.9.0).`,
          path: CONTROLLER_CONFIG_PATH,
        },
      ],
    };
  if (read.ignoredBy !== undefined)
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'EG_DEFAULT_SPEC_IGNORED',
          message:
            `ConfigMap ${kubeObjectRef(configMap)}: the EnvoyGateway config has a default ` +
            `EnvoyProxy spec (envoyProxy), but the chart is Envoy Gateway ${read.ignoredBy}, ` +
            `whose controller has no such field before v${DEFAULT_SPEC.since} and drops it ` +
            `(api/v1alpha1/envoygateway_types.go@v1.6.7): its proxies get Envoy Gateway's ` +
            `defaults. Nothing is set there; put the shutdown settings in an EnvoyProxy that the ` +
            `GatewayClass or Gateway names (parametersRef), or upgrade to v${DEFAULT_SPEC.since}+.`,
          path: CONTROLLER_CONFIG_PATH,
        },
      ],
    };
  if (read.defaultSpec === undefined) return { changes: [], findings: [] };
  const outcome = planSpec(read.defaultSpec, context);
  // Paths inside the embedded document become the ConfigMap key that holds it.
  const findings = outcome.findings.map((f) => ({ ...f, path: CONTROLLER_CONFIG_PATH }));
  if (outcome.changes.length === 0) return { ...outcome, findings };
  const text = editControllerConfig(read.text, outcome.changes);
  return {
    ...outcome,
    findings,
    changes: [
      {
        path: CONTROLLER_CONFIG_PATH,
        value: text,
        reason: outcome.changes
          .map((c) => `${formatPath(c.path)} in data.${CONTROLLER_CONFIG_KEY}: ${c.reason}`)
          .join('\n'),
      },
    ],
  };
}
