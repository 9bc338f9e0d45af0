/** The istio-gateway-api decision's findings, before the object mutator adds the resource. */
import type { FieldPath } from '../../core/fieldPath.ts';

/** A finding, as fn/mutators/types.ts ProposedFinding has it, naming the object it is about. */
export interface IstioGatewayApiFinding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: string;
  readonly message: string;
  readonly object?: 'gateway' | 'parameters' | 'class-defaults';
  readonly path?: FieldPath;
}

/** The parameters ConfigMap's deployment overlay cannot take the settings. */
export function notMergeable(name: string, problem: string): IstioGatewayApiFinding {
  return {
    severity: 'warning',
    code: 'ISTIO_GATEWAY_API_OVERLAY_NOT_MERGEABLE',
    object: 'parameters',
    path: ['data', 'deployment'],
    message:
      `ConfigMap ${name}: ${problem}; kube-graceful merges only into a YAML ` +
      `mapping whose containers and env are lists, so nothing was written. ` +
      `Fix the overlay, or add the settings by hand.`,
  };
}
