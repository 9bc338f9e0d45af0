/**
 * Which Istio version a gateway's proxy runs, with the words that say how we know: env mode needs
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS and MINIMUM_DRAIN_DURATION, which exist from Istio 1.12
 * (docs/background.md#istio).
 */
import { originOf } from '../../config/schema.ts';
import { originText } from '../../core/source.ts';
import type { GatewayShape } from '../../workloads/gatewayShape.ts';
import { labelsOf } from '../../core/kubeObject.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { MutatorContext } from '../types.ts';
import { proxyContainer } from './proxyContainer.ts';

/** An Istio version (`X.Y` or `X.Y.Z`) and where it was read. */
export interface IstioVersion {
  readonly version: string;
  readonly source: string;
  /**
   * False when nothing said it: no released chart label, no image tag, no istioVersion set (the
   * built-in default was used).
   */
  readonly known: boolean;
}

const CHART_LABEL = 'helm.sh/chart';
/**
 * `gateway-1.0.0` is the version the chart has in the istio/istio source tree; released charts
 * carry the Istio version instead (docs/background.md#istio). Rendering from a checkout gives
 * 1.0.0, which says nothing about Istio: every gateway file of our corpus is such a render.
 */
const UNRELEASED_CHART_VERSION = '1.0.0';

/**
 * Returns the Istio version: from a released gateway chart's `helm.sh/chart: gateway-X.Y.Z`
 * label (pod template first, then the workload), else, for the legacy shape, from the proxyv2
 * image tag (the proxy binary is what reads the env), else from config `istioVersion`.
 */
export function istioVersionOf(
  workload: Workload,
  shape: GatewayShape,
  context: MutatorContext,
): IstioVersion {
  const notes: string[] = [];
  for (const [where, labels] of [
    ['pod template', labelsOf(workload.template.metadata)],
    ['workload', labelsOf(workload.object.metadata)],
  ] as const) {
    const chart = labels[CHART_LABEL];
    if (chart === undefined) continue;
    const match = /^gateway-(\d+\.\d+\.\d+)(?:[-+].*)?$/.exec(String(chart));
    if (!match) continue;
    if (match[1] === UNRELEASED_CHART_VERSION) {
      notes.push(
        `${where} label ${CHART_LABEL}: ${chart} is the unreleased in-repo chart, ` +
          `not an Istio release`,
      );
      break;
    }
    return { version: match[1]!, source: `${where} label ${CHART_LABEL}: ${chart}`, known: true };
  }
  if (shape === 'legacy') {
    const image = proxyContainer(workload, shape)?.image ?? '';
    const tag = /\/proxyv2:(\d+\.\d+(?:\.\d+)?)(?:[-_].*)?$/.exec(image);
    if (tag) return { version: tag[1]!, source: `image tag ${image}`, known: true };
  }
  const from = originOf(context.config, 'istioVersion');
  const origin =
    from.kind === 'default'
      ? 'default istioVersion; set --istio-version to change'
      : `istioVersion from ${originText(from)}`;
  return {
    version: context.spec.istioVersion,
    source: [origin, ...notes].join('; '),
    known: from.kind !== 'default',
  };
}
