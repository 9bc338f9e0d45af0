// Istio env mode is decided once (fn/mutators/shared/istioEnvMode.ts) for gateway-drain's
// Deployments and for the Deployments istiod generates for Gateway API Gateways. This runs both on
// their real inputs (the gateway chart 1.30.3 render behind an NLB; the customizations case of
// Istio's deployment-controller test) with the same env entries of a user's, and requires the same
// outcome: the values the pod ends with, the grace period, and which entries are kept with a
// warning.
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { transform } from '../../../fn/engine/transform.ts';
import { gatewayDrain } from '../../../fn/mutators/gateway/index.ts';
import { planIstioGatewayApi } from '../../../fn/mutators/istio-gateway-api/plan.ts';
import type {
  ConfigMapObject,
  GatewayObject,
} from '../../../fn/mutators/istio-gateway-api/objects.ts';
import type { Container, KubeObject, PodTemplate } from '../../../fn/core/kubeObject.ts';
import { fixtureObjects } from '../istio-gateway-api/fixtures.ts';
import { corpus } from '../../helpers/fixtures.ts';
import { fromFlag } from '../../helpers/sources.ts';

const MINIMUM = 'MINIMUM_DRAIN_DURATION';
const EXIT = 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS';

/** Env entries of a user's, as YAML list items at column 0. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  ['none', ''],
  ['a shorter minimum', `- name: ${MINIMUM}\n  value: 30s\n`],
  ['a longer minimum', `- name: ${MINIMUM}\n  value: 400s\n`],
  ['a fractional longer minimum', `- name: ${MINIMUM}\n  value: 400.5s\n`],
  ['a bare number', `- name: ${MINIMUM}\n  value: "30"\n`],
  [
    'a minimum from valueFrom',
    `- name: ${MINIMUM}\n  valueFrom:\n    configMapKeyRef: {name: d, key: m}\n`,
  ],
  ['exit-on-zero off', `- name: ${EXIT}\n  value: "false"\n`],
  ['exit-on-zero as Go reads 1', `- name: ${EXIT}\n  value: "1"\n`],
  [
    'exit-on-zero from valueFrom',
    `- name: ${EXIT}\n  valueFrom:\n    fieldRef: {fieldPath: metadata.name}\n`,
  ],
  ['both set, exit on', `- name: ${MINIMUM}\n  value: 60s\n- name: ${EXIT}\n  value: "true"\n`],
];

/** What a pod ends with: the two entries (value or "valueFrom"), G, and the names warned. */
interface Outcome {
  readonly minimum: unknown;
  readonly exit: unknown;
  readonly grace: unknown;
  readonly warned: string[];
}

const indent = (text: string, spaces: number): string =>
  text.replace(/^(?=.)/gm, ' '.repeat(spaces));

function envOf(template: PodTemplate | undefined): (name: string) => unknown {
  const proxy = template?.spec?.containers?.find((c: Container) => c.name === 'istio-proxy');
  return (name) => {
    const entry = proxy?.env?.find((e) => e.name === name);
    return entry?.valueFrom ? 'valueFrom' : entry?.value;
  };
}

function warnedNames(messages: readonly string[]): string[] {
  return [MINIMUM, EXIT].filter((name) =>
    messages.some((m) => m.startsWith(`${name} `) || m.includes(`env ${name} `)),
  );
}

/** gateway-drain on the gateway chart's render, the entries added to istio-proxy's env. */
function gatewayChart(entries: string): Outcome {
  const input = corpus('istio-gateway-1.30.3-nlb.yaml').replace(
    '          - name: ISTIO_META_ROUTER_MODE\n            value: "standard"\n',
    (own) => own + indent(entries, 10),
  );
  const result = transform(input, {
    mutators: [gatewayDrain],
    flags: { 'drain-window': '180', 'max-request': '10', buffer: '10' },
  });
  const deployment = parseAllDocuments(result.output)
    .map((d) => d.toJS() as KubeObject | null)
    .find((o) => o?.kind === 'Deployment') as { spec: { template: PodTemplate } };
  const env = envOf(deployment.spec.template);
  return {
    minimum: env(MINIMUM),
    exit: env(EXIT),
    grace: deployment.spec.template.spec?.terminationGracePeriodSeconds,
    warned: warnedNames(
      result.findings.filter((f) => f.code.startsWith('GATEWAY_ENV_')).map((f) => f.message),
    ),
  };
}

/** The Gateway API decision on the customizations case, the entries in its parameters overlay. */
function gatewayApi(entries: string): Outcome {
  const objects = structuredClone(fixtureObjects('variants/gateway-params-gw-options.yaml'));
  const parameters = objects.find((o) => o.kind === 'ConfigMap') as ConfigMapObject;
  if (entries !== '')
    parameters.data!['deployment'] = String(parameters.data!['deployment']).replace(
      '      - name: istio-proxy\n',
      (own) => own + '        env:\n' + indent(entries, 8),
    );
  const gateway = objects.find((o) => o.kind === 'Gateway') as GatewayObject;
  const outcome = planIstioGatewayApi({
    gateway,
    objects,
    className: 'istio',
    istioVersion: { major: 1, minor: 30, source: 'flag --istio-version' },
    istiodNamespace: 'istio-system',
    kubernetesVersion: '1.31',
    drainWindow: { value: 180, source: fromFlag('drain-window') },
    maxRequest: { value: 10, source: fromFlag('max-request') },
    buffer: { value: 10, source: fromFlag('buffer') },
  });
  const patched = outcome.generated!.patched.template;
  const env = envOf(patched);
  return {
    minimum: env(MINIMUM),
    exit: env(EXIT),
    grace: patched.spec?.terminationGracePeriodSeconds,
    warned: warnedNames(
      outcome.findings
        .filter((f) => f.code === 'ISTIO_GATEWAY_API_VALUE_OTHER')
        .map((f) => f.message),
    ),
  };
}

for (const [title, entries] of CASES) {
  test(`env mode decides alike for a gateway chart and a Gateway API gateway: ${title}`, (t) => {
    const chart = gatewayChart(entries);
    t.deepEqual(gatewayApi(entries), chart);
    // Nothing the user set is lowered, and G holds what the proxy serves.
    if (title === 'a longer minimum') t.like(chart, { minimum: '400s', exit: 'true', grace: 420 });
    if (title === 'none') t.like(chart, { minimum: '180s', exit: 'true', grace: 200 });
  });
}
