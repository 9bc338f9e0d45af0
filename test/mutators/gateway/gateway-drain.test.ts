// gateway-drain through the whole engine: inline YAML in, edited YAML, records and plan out.
// Every case also runs twice (the second run must change nothing) and validates each document
// the run changed against the Kubernetes schemas.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { parseAllDocuments } from 'yaml';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { transform } from '../../../fn/engine/transform.ts';
import type { TransformResult } from '../../../fn/engine/transform.ts';
import { gatewayDrain } from '../../../fn/mutators/gateway/index.ts';
import type { GatewayPlan } from '../../../fn/mutators/gateway/plan.ts';
import { preStopSeconds as existingPreStopSeconds } from '../../../fn/workloads/preStop.ts';
import { readProxyConfig, setProxyConfigField } from '../../../fn/workloads/istioProxyConfig.ts';
import { validateChangedDocuments } from '../../helpers/golden.ts';
import { parseGoDurationSeconds } from '../../../fn/timing/durations.ts';
import { sourceText } from '../../../fn/core/source.ts';

type Flags = Record<string, string>;

/** The seed thread's numbers (DOMAIN §5 worked example): R = 10, B = 10. */
/**
 * With a stated Istio ≥ 1.17, so parentShutdownDuration (its own cases below) stays out of the
 * way.
 */
const SEED: Flags = { 'max-request': '10', buffer: '10', 'istio-version': '1.26' };

/** The NLB's target group: a 200 s deregistration delay, connection termination on. */
const TARGET_GROUP_ATTRIBUTES = [
  'deregistration_delay.timeout_seconds=200',
  'deregistration_delay.connection_termination.enabled=true',
].join(',');

const NLB_SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: istio-public-ingressgateway
  namespace: istio-system
  annotations:
    service.beta.kubernetes.io/aws-load-balancer-type: external
    service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip
    service.beta.kubernetes.io/aws-load-balancer-target-group-attributes: ${TARGET_GROUP_ATTRIBUTES}
spec:
  type: LoadBalancer
  selector:
    app: istio-public-ingressgateway
  ports:
    - name: http2
      port: 80
`;

const GENERIC_SERVICE = NLB_SERVICE.replace(/ {2}annotations:\n(?: {4}.*\n)+/, '');

/**
 * An injected gateway Deployment as the gateway chart renders it (inject.istio.io/templates:
 * gateway, container istio-proxy, image auto), with hooks to vary what the tests are about.
 */
function gateway(
  options: {
    annotations?: string;
    container?: string;
    podSpec?: string;
    spec?: string;
    labels?: string;
    kind?: string;
  } = {},
): string {
  return `apiVersion: apps/v1
kind: ${options.kind ?? 'Deployment'}
metadata:
  name: istio-public-ingressgateway
  namespace: istio-system
spec:
${options.spec ?? '  replicas: 3\n'}  selector:
    matchLabels:
      app: istio-public-ingressgateway
  template:
    metadata:
      annotations:
        inject.istio.io/templates: gateway
        sidecar.istio.io/inject: "true"
${options.annotations ?? ''}      labels:
${
  options.labels ??
  '        app: istio-public-ingressgateway\n' + '        istio: public-ingressgateway\n'
}    spec:
      containers:
        - name: istio-proxy
          image: auto
${
  options.container ??
  '          env:\n' +
    '          - name: ISTIO_META_ROUTER_MODE\n' +
    '            value: "standard"\n'
}          ports:
          - containerPort: 15090
            name: http-envoy-prom
${options.podSpec ?? ''}`;
}

/**
 * The legacy `gateways/istio-ingress` chart shape (Istio ≤ 1.x): not injected, proxyv2 runs `proxy
 * router`.
 */
function legacyGateway(image = 'docker.io/istio/proxyv2:1.9.0', podinfo = false): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: istio-public-ingressgateway
  namespace: istio-system
spec:
  replicas: 3
  selector:
    matchLabels:
      app: istio-public-ingressgateway
  template:
    metadata:
      annotations:
        sidecar.istio.io/inject: "false"
      labels:
        app: istio-public-ingressgateway
        istio: ingressgateway
    spec:
      containers:
        - name: istio-proxy
          image: ${image}
          args:
          - proxy
          - router
          - --domain
          - $(POD_NAMESPACE).svc.cluster.local
          - --serviceCluster
          - istio-ingressgateway
          env:
          - name: POD_NAMESPACE
            valueFrom:
              fieldRef:
                fieldPath: metadata.namespace
          ports:
          - containerPort: 8080
            protocol: TCP
${podinfo ? PODINFO : ''}`;
}

/** The legacy chart's downward-API volume
 * (manifests/charts/gateways/istio-ingress/templates/deployment.yaml@1.16.7). */
const PODINFO = `          volumeMounts:
          - name: podinfo
            mountPath: /etc/istio/pod
      volumes:
      - name: podinfo
        downwardAPI:
          items:
            - path: "labels"
              fieldRef:
                fieldPath: metadata.labels
            - path: "annotations"
              fieldRef:
                fieldPath: metadata.annotations
`;

const stream = (...docs: string[]): string => docs.join('---\n');

function run(yaml: string, flags: Flags = {}): TransformResult {
  return transform(yaml, { mutators: [gatewayDrain], flags });
}

/** Returns `path → after` of every change, paths as text. */
function changed(result: TransformResult): Record<string, unknown> {
  return Object.fromEntries(result.changes.map((c) => [formatPath(c.path), c.after]));
}

const codes = (result: TransformResult): string[] =>
  result.findings.map((f) => `${f.severity} ${f.code}`);
const planOf = (result: TransformResult): GatewayPlan => result.outcomes[0]!.plan as GatewayPlan;

const PROXY = 'spec.template.spec.containers[name=istio-proxy]';
const ENV = (name: string) => `${PROXY}.env[name=${name}].value`;
const GRACE = 'spec.template.spec.terminationGracePeriodSeconds';
const PROXY_CONFIG = 'spec.template.metadata.annotations["proxy.istio.io/config"]';
const PRESTOP = `${PROXY}.lifecycle.preStop`;
/** The gateway's Service as a ClusterIP with GKE's NEG annotation, and `more` annotation lines. */
function negService(more = ''): string {
  return GENERIC_SERVICE.replace(
    'metadata:\n  name: istio-public-ingressgateway\n  namespace: istio-system\n',
    'metadata:\n' +
      '  name: istio-public-ingressgateway\n' +
      '  namespace: istio-system\n' +
      '  annotations:\n' +
      `    cloud.google.com/neg: '{"ingress": true}'\n` +
      more,
  ).replace('type: LoadBalancer', 'type: ClusterIP');
}
/** The NLB Service with instance targets and externalTrafficPolicy Local: the nodes are targets. */
const NLB_INSTANCE_LOCAL_SERVICE = NLB_SERVICE.replace(
  'aws-load-balancer-nlb-target-type: ip',
  'aws-load-balancer-nlb-target-type: instance',
).replace('  type: LoadBalancer\n', '  type: LoadBalancer\n  externalTrafficPolicy: Local\n');

/**
 * The invariants every case must keep: idempotent, valid documents, no obsolete settings written.
 */
function invariants(
  t: ExecutionContext,
  input: string,
  flags: Flags,
  result: TransformResult,
): void {
  const again = run(result.output, flags);
  t.deepEqual(again.changes, [], 'a second run over the output must change nothing');
  t.is(again.output, result.output);
  if (result.changes.length > 0)
    t.true(validateChangedDocuments(result) > 0, 'changed documents must validate');
  const obsolete = 'TERMINATION_DRAIN_DURATION_SECONDS';
  t.is(
    result.output.split(obsolete).length,
    input.split(obsolete).length,
    `${obsolete} must never be written`,
  );
  // parentShutdownDuration only where Istio may still enforce it (< 1.17 or unknown), and then
  // above drainDuration.
  const plan = result.outcomes[0]?.plan as GatewayPlan | undefined;
  for (const change of result.changes.filter((c) => formatPath(c.path) === PROXY_CONFIG)) {
    const fields = readProxyConfig(change.after);
    const before = readProxyConfig(change.before);
    if (!fields.ok || fields.fields['parentShutdownDuration'] === undefined) continue;
    if (
      before.ok &&
      before.fields['parentShutdownDuration'] === fields.fields['parentShutdownDuration']
    )
      continue; // the user's own, kept
    t.true(
      plan !== undefined && (!plan.istio.known || Number(plan.istio.version.split('.')[1]) < 17),
      'parentShutdownDuration written only where Istio < 1.17 or unknown',
    );
    const seconds = (v: unknown) => parseGoDurationSeconds(String(v)) ?? NaN;
    t.true(
      seconds(fields.fields['parentShutdownDuration']) >
        seconds(fields.fields['drainDuration'] ?? '45s'),
      'parentShutdownDuration above drainDuration',
    );
  }
  for (const change of result.changes)
    t.regex(change.reason, /=/, 'every reason carries a derivation');
}

interface Case {
  readonly title: string;
  readonly input: string;
  readonly flags?: Flags;
  /** Changes expected, path → value; `undefined` asserts the path is not changed. */
  readonly changes?: Record<string, unknown>;
  /** Exactly these changes and no others. */
  readonly only?: boolean;
  /** `severity CODE` of findings that must be present. */
  readonly findings?: string[];
  /** Codes that must not be present. */
  readonly absent?: string[];
  readonly check?: (t: ExecutionContext, result: TransformResult) => void;
}

const cases: Case[] = [
  {
    title:
      'seed thread: NLB with W=180, R=10, B=10 → minimum drain 180 s, drainDuration 190 s, ' +
      'grace 200',
    input: stream(NLB_SERVICE, gateway()),
    flags: SEED,
    only: true,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
      [PROXY_CONFIG]: 'drainDuration: 190s\n',
      [GRACE]: 200,
    },
    absent: ['LB_DEREGISTRATION_TOO_SHORT', 'LB_DEREGISTRATION_OUTLIVES_GRACE'],
    check: (t, result) => {
      const reason = (path: string) =>
        result.changes.find((c) => formatPath(c.path) === path)!.reason;
      t.regex(
        reason(ENV('MINIMUM_DRAIN_DURATION')),
        /^MINIMUM_DRAIN_DURATION = "180s": M = S = 180; S = W = 180\./,
      );
      t.regex(
        reason(ENV('MINIMUM_DRAIN_DURATION')),
        /W: Service istio-system\/istio-public-ingressgateway: AWS NLB with IP targets/,
      );
      t.regex(reason(GRACE), /G = S \+ R \+ B = 180 \+ 10 \+ 10 = 200/);
      t.regex(reason(GRACE), /longest request \(10 s, flag --max-request\)/);
      t.regex(reason(PROXY_CONFIG), /D = W \+ B = 180 \+ 10 = 190/);
      const plan = planOf(result);
      t.is(plan.mode, 'env');
      t.is(plan.shape, 'injected');
      t.is(plan.loadBalancer?.provider, 'aws-nlb-ip');
      t.is(plan.plan.graceSeconds.value, 200);
      t.is(plan.inputs.drainWindow.value, 180);
      // The user's env entry stays first and unchanged; ours are appended by name.
      const doc = parseAllDocuments(result.output)[1]!.toJS() as {
        spec: { template: { spec: { containers: Array<{ env: Array<{ name: string }> }> } } };
      };
      t.deepEqual(
        doc.spec.template.spec.containers[0]!.env.map((e) => e.name),
        ['ISTIO_META_ROUTER_MODE', 'MINIMUM_DRAIN_DURATION', 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'],
      );
    },
  },
  {
    title: 'env: null becomes a list with both entries',
    input: stream(NLB_SERVICE, gateway({ container: '          env:\n' })),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
    },
    check: (t, result) =>
      t.regex(
        result.output,
        new RegExp(
          String.raw`env:` +
            String.raw`\n\s+- name: MINIMUM_DRAIN_DURATION\n\s+value: 180s` +
            String.raw`\n\s+- name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS\n\s+value: "true"`,
        ),
      ),
  },
  {
    title: 'no env at all: env is added',
    input: stream(NLB_SERVICE, gateway({ container: '' })),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
    },
  },
  {
    title: 'a shorter MINIMUM_DRAIN_DURATION is raised by name, in place; exit-on-zero kept on',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          env:\n' +
          '          - name: MINIMUM_DRAIN_DURATION\n' +
          '            value: "30s"\n' +
          '          - name: ISTIO_META_ROUTER_MODE\n' +
          '            value: standard\n' +
          '          - name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS\n' +
          '            value: "true"\n',
      }),
    ),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: undefined,
    },
    check: (t, result) => {
      t.regex(
        result.output,
        new RegExp(
          String.raw`- name: MINIMUM_DRAIN_DURATION\n\s+value: "180s"` +
            String.raw`\n\s+- name: ISTIO_META_ROUTER_MODE\n\s+value: standard` +
            String.raw`\n\s+- name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS\n\s+value: "true"`,
        ),
      );
      t.is(
        result.changes.find((c) => formatPath(c.path) === ENV('MINIMUM_DRAIN_DURATION'))!.before,
        '30s',
      );
    },
  },
  {
    title: 'a longer MINIMUM_DRAIN_DURATION is kept and is S: G is built on it, nothing is lowered',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          env:\n          - name: MINIMUM_DRAIN_DURATION\n            value: 400s\n',
      }),
    ),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: undefined,
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
      [GRACE]: 420,
    },
    check: (t, result) => {
      t.regex(
        result.changes.find((c) => formatPath(c.path) === GRACE)!.reason,
        new RegExp(
          String.raw`^terminationGracePeriodSeconds = 420: ` +
            String.raw`G = S \+ R \+ B = 400 \+ 10 \+ 10 = 420; ` +
            String.raw`S = 400 \(kept: MINIMUM_DRAIN_DURATION "400s" in container istio-proxy\)`,
        ),
      );
    },
  },
  {
    title:
      'values Istio does not read as the plan needs (a bare "30", exit-on-zero "false") are ' +
      'kept and warned; exit-on-zero is not turned on over the unreadable minimum',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          env:\n' +
          '          - name: MINIMUM_DRAIN_DURATION\n' +
          '            value: "30"\n' +
          '          - name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS\n' +
          '            value: "false"\n',
      }),
    ),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: undefined,
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: undefined,
      [GRACE]: 200,
    },
    findings: ['warning GATEWAY_ENV_VALUE_OTHER', 'warning GATEWAY_ENV_VALUE_OTHER'],
    check: (t, result) => {
      const messages = result.findings.map((f) => f.message);
      t.regex(messages[0]!, /^MINIMUM_DRAIN_DURATION on container istio-proxy is "30"; /);
      t.regex(messages[0]!, /the plan needs 180s \(M = S = 180\): Istio reads only a Go duration/);
      t.regex(
        messages[1]!,
        /^EXIT_ON_ZERO_ACTIVE_CONNECTIONS on container istio-proxy is "false";/,
      );
      t.regex(messages[1]!, /the plan needs "true"/);
    },
  },
  {
    title:
      'MINIMUM_DRAIN_DURATION from valueFrom: left alone, warned, ' +
      'and exit-on-zero not turned on over it',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          env:\n' +
          '          - name: MINIMUM_DRAIN_DURATION\n' +
          '            valueFrom:\n' +
          '              configMapKeyRef: {name: drain, key: minimum}\n',
      }),
    ),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: undefined,
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: undefined,
      [GRACE]: 200,
    },
    findings: ['warning GATEWAY_ENV_VALUE_FROM'],
    check: (t, result) => t.regex(result.output, /configMapKeyRef: \{name: drain, key: minimum\}/),
  },
  {
    title: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS from valueFrom: kept; MINIMUM_DRAIN_DURATION still set',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          env:\n' +
          '          - name: EXIT_ON_ZERO_ACTIVE_CONNECTIONS\n' +
          '            valueFrom:\n' +
          `              fieldRef: {fieldPath: "metadata.annotations['exit']"}\n`,
      }),
    ),
    flags: SEED,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: undefined,
    },
    findings: ['warning GATEWAY_ENV_VALUE_FROM'],
  },
  {
    title:
      'existing proxy.istio.io/config: drainDuration merged in, ' +
      'every other key and comment kept byte for byte',
    input: stream(
      NLB_SERVICE,
      gateway({
        annotations:
          '        proxy.istio.io/config: |\n' +
          '          # tuned by platform team\n' +
          '          holdApplicationUntilProxyStarts: true\n' +
          '          proxyMetadata:\n' +
          '            ISTIO_META_DNS_CAPTURE: "true"\n' +
          '          terminationDrainDuration: 10s\n',
      }),
    ),
    flags: SEED,
    changes: {
      [PROXY_CONFIG]:
        '# tuned by platform team\n' +
        'holdApplicationUntilProxyStarts: true\n' +
        'proxyMetadata:\n' +
        '  ISTIO_META_DNS_CAPTURE: "true"\n' +
        'terminationDrainDuration: 10s\n' +
        'drainDuration: 190s\n',
    },
    check: (t, result) =>
      t.regex(
        result.changes.find((c) => formatPath(c.path) === PROXY_CONFIG)!.reason,
        /kept: holdApplicationUntilProxyStarts, proxyMetadata, terminationDrainDuration/,
      ),
  },
  {
    title: 'a longer drainDuration of the user is never lowered',
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "drainDuration: 5m"\n' }),
    ),
    flags: SEED,
    changes: { [PROXY_CONFIG]: undefined, [GRACE]: 200 },
    absent: ['DRAIN_DURATION_BELOW_WINDOW'],
  },
  {
    title: "a drainDuration below W is raised, with the model's finding; the quoting is kept",
    input: stream(
      NLB_SERVICE,
      gateway({
        annotations: '        proxy.istio.io/config: |\n          drainDuration: "45s"\n',
      }),
    ),
    flags: SEED,
    changes: { [PROXY_CONFIG]: 'drainDuration: "190s"\n' },
    findings: ['info DRAIN_DURATION_BELOW_WINDOW'],
  },
  {
    title: 'invalid proxy config YAML: warning, annotation left alone, the rest still applied',
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "{drainDuration: 45s"\n' }),
    ),
    flags: SEED,
    changes: { [PROXY_CONFIG]: undefined, [ENV('MINIMUM_DRAIN_DURATION')]: '180s', [GRACE]: 200 },
    findings: ['warning PROXY_CONFIG_NOT_MERGEABLE'],
  },
  {
    title: 'proxy config that is a list: warning, no change',
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "- drainDuration: 45s"\n' }),
    ),
    flags: SEED,
    changes: { [PROXY_CONFIG]: undefined },
    findings: ['warning PROXY_CONFIG_NOT_MERGEABLE'],
  },
  {
    title: 'proxy config with anchors: warning, no change',
    input: stream(
      NLB_SERVICE,
      gateway({
        annotations:
          '        proxy.istio.io/config: |\n' +
          '          proxyMetadata: &m {A: "1"}\n' +
          '          extra: *m\n',
      }),
    ),
    flags: SEED,
    changes: { [PROXY_CONFIG]: undefined },
    findings: ['warning PROXY_CONFIG_NOT_MERGEABLE'],
  },
  {
    title:
      "in-cluster gateway: Istio's 45 s drainDuration already covers W + B, " +
      'so none is written; G = 30 is the Kubernetes default, so no grace either',
    input: stream(
      NLB_SERVICE.replace(/ {2}annotations:\n(?: {4}.*\n)+/, '').replace(
        'type: LoadBalancer',
        'type: ClusterIP',
      ),
      gateway(),
    ),
    changes: {
      [PROXY_CONFIG]: undefined,
      [ENV('MINIMUM_DRAIN_DURATION')]: '5s',
      [GRACE]: undefined,
    },
    findings: ['info DRAIN_WINDOW_ESTIMATE'],
  },
  {
    title:
      'sleep mode on Kubernetes 1.31: preStop sleep action, ' +
      'terminationDrainDuration = R so requests in flight after the sleep finish, no env, ' +
      'no drainDuration',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'gateway-mode': 'sleep', 'kube-version': '1.31' },
    only: true,
    changes: {
      [PRESTOP]: { sleep: { seconds: 180 } },
      [GRACE]: 200,
      [PROXY_CONFIG]: 'terminationDrainDuration: 10s\n',
    },
    absent: ['GATEWAY_TERMINATION_DRAIN_SHORT'],
    check: (t, result) => {
      t.is(planOf(result).mode, 'sleep');
      t.regex(
        result.changes.find((c) => formatPath(c.path) === PROXY_CONFIG)!.reason,
        /terminationDrainDuration = "10s": T = R = 10\. After the preStop sleep/,
      );
    },
  },
  {
    title:
      'sleep mode with terminationDrainDuration ≥ R in the annotation: ' +
      'no termination-drain warning',
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "terminationDrainDuration: 15s"\n' }),
    ),
    flags: { ...SEED, 'gateway-mode': 'sleep' },
    changes: { [PRESTOP]: { sleep: { seconds: 180 } } },
    absent: ['GATEWAY_TERMINATION_DRAIN_SHORT'],
  },
  {
    title: 'sleep mode on Kubernetes 1.28 with a shell: exec sleep',
    input: stream(NLB_SERVICE, gateway()),
    flags: {
      ...SEED,
      'gateway-mode': 'sleep',
      'kube-version': '1.28',
      'gateway-image-has-shell': 'true',
    },
    changes: { [PRESTOP]: { exec: { command: ['sleep', '180'] } }, [GRACE]: 200 },
  },
  {
    title: 'sleep mode on Kubernetes 1.28 without a shell: warning, nothing written',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'gateway-mode': 'sleep', 'kube-version': '1.28' },
    only: true,
    changes: {},
    findings: ['warning GATEWAY_NO_PRESTOP'],
  },
  {
    title: 'sleep mode on Kubernetes 1.29 (sleep action alpha, off): no sleep action',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'gateway-mode': 'sleep', 'kube-version': '1.29' },
    changes: { [PRESTOP]: undefined },
    findings: ['warning GATEWAY_NO_PRESTOP'],
  },
  {
    title: 'an existing preStop sleep is left alone and its length feeds the model',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          lifecycle:\n' +
          '            preStop:\n' +
          '              exec:\n' +
          '                command: ["/bin/sh", "-c", "sleep 60"]\n',
      }),
    ),
    flags: { ...SEED, 'gateway-mode': 'sleep' },
    only: true,
    changes: { [GRACE]: 80, [PROXY_CONFIG]: 'terminationDrainDuration: 10s\n' },
    findings: ['warning PRESTOP_BELOW_WINDOW'],
    check: (t, result) => {
      t.is(planOf(result).inputs.existingPreStopSeconds, 60);
      t.regex(
        result.changes.find((c) => formatPath(c.path) === GRACE)!.reason,
        /G = S \+ R \+ B = 60 \+ 10 \+ 10 = 80/,
      );
    },
  },
  {
    title: 'an existing preStop of unknown length is left alone; the model assumes W and warns',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          lifecycle:\n' +
          '            preStop:\n' +
          '              httpGet: {path: /drain, port: 15020}\n',
      }),
    ),
    flags: { ...SEED, 'gateway-mode': 'sleep' },
    only: true,
    changes: { [GRACE]: 200, [PROXY_CONFIG]: 'terminationDrainDuration: 10s\n' },
    findings: ['warning PRESTOP_LENGTH_UNKNOWN'],
  },
  {
    title:
      'env mode with a preStop sleep of the user: kept, and counted in the grace period ' +
      '(P + S + R + B = 30 + 180 + 10 + 10)',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          lifecycle:\n            preStop:\n              sleep: {seconds: 30}\n',
      }),
    ),
    flags: SEED,
    changes: { [PRESTOP]: undefined, [ENV('MINIMUM_DRAIN_DURATION')]: '180s', [GRACE]: 230 },
    findings: ['info GATEWAY_PRESTOP_IN_ENV_MODE'],
    check: (t, result) =>
      t.is(
        planOf(result).plan.graceSeconds.formula,
        'G = P + S + R + B = 30 + 180 + 10 + 10 = 230',
      ),
  },
  {
    title: 'env mode with a preStop of unknown length: kept, and the gap is reported',
    input: stream(
      NLB_SERVICE,
      gateway({
        container:
          '          lifecycle:\n            preStop:\n' +
          '              httpGet: {path: /quit, port: 15000}\n',
      }),
    ),
    flags: SEED,
    changes: { [PRESTOP]: undefined, [ENV('MINIMUM_DRAIN_DURATION')]: '180s' },
    findings: ['warning GATEWAY_PRESTOP_IN_ENV_MODE'],
  },
  {
    title: 'a larger grace period in the manifest is never lowered',
    input: stream(NLB_SERVICE, gateway({ podSpec: '      terminationGracePeriodSeconds: 600\n' })),
    flags: SEED,
    changes: { [GRACE]: undefined, [ENV('MINIMUM_DRAIN_DURATION')]: '180s' },
    check: (t, result) => t.is(planOf(result).plan.graceSeconds.value, 600),
  },
  {
    title:
      'legacy chart (proxyv2:1.9.0, proxy router, not injected): ' +
      'Istio < 1.12 → sleep mode on the proxyv2 container',
    input: stream(NLB_SERVICE, legacyGateway()),
    flags: SEED,
    only: true,
    changes: { [PRESTOP]: { sleep: { seconds: 180 } }, [GRACE]: 200 },
    findings: ['info GATEWAY_ENV_MODE_UNSUPPORTED', 'warning GATEWAY_TERMINATION_DRAIN_SHORT'],
    check: (t, result) => {
      const plan = planOf(result);
      t.is(plan.shape, 'legacy');
      t.is(plan.mode, 'sleep');
      t.is(plan.istio.version, '1.9.0');
      t.regex(plan.istio.source, /image tag docker\.io\/istio\/proxyv2:1\.9\.0/);
      t.false(result.output.includes('proxy.istio.io/config'));
      t.regex(result.output, /args:\n\s+- proxy\n\s+- router\n\s+- --domain/);
    },
  },
  {
    title:
      'legacy chart on Istio 1.20: env on the container; drainDuration cannot be delivered, ' +
      'so none is written',
    input: stream(NLB_SERVICE, legacyGateway('docker.io/istio/proxyv2:1.20.0')),
    flags: SEED,
    only: true,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
      [GRACE]: 200,
    },
    findings: ['warning GATEWAY_DRAIN_DURATION_NOT_DELIVERED'],
    check: (t, result) =>
      t.regex(
        result.output,
        new RegExp(
          String.raw`- name: POD_NAMESPACE\n\s+valueFrom:\n\s+fieldRef:` +
            String.raw`\n\s+fieldPath: metadata.namespace\n\s+- name: MINIMUM_DRAIN_DURATION`,
        ),
      ),
  },
  {
    title:
      'legacy chart on Istio 1.20 with the podinfo mount: ' +
      'drainDuration delivered through the annotations file',
    input: stream(NLB_SERVICE, legacyGateway('docker.io/istio/proxyv2:1.20.0', true)),
    flags: SEED,
    only: true,
    changes: {
      [ENV('MINIMUM_DRAIN_DURATION')]: '180s',
      [ENV('EXIT_ON_ZERO_ACTIVE_CONNECTIONS')]: 'true',
      [GRACE]: 200,
      [PROXY_CONFIG]: 'drainDuration: 190s\n',
    },
    absent: ['GATEWAY_DRAIN_DURATION_NOT_DELIVERED'],
    check: (t, result) =>
      t.regex(
        result.changes.find((c) => formatPath(c.path) === PROXY_CONFIG)!.reason,
        /reads proxy\.istio\.io\/config from the downward-API file \/etc\/istio\/pod\/annotations/,
      ),
  },
  {
    title:
      'legacy chart on Istio 1.16 with the podinfo mount: ' +
      'drainDuration and parentShutdownDuration delivered',
    input: stream(NLB_SERVICE, legacyGateway('docker.io/istio/proxyv2:1.16.7', true)),
    flags: SEED,
    changes: { [PROXY_CONFIG]: 'drainDuration: 190s\nparentShutdownDuration: 205s\n' },
    absent: ['GATEWAY_DRAIN_DURATION_NOT_DELIVERED'],
  },
  {
    title:
      'legacy chart on Istio 1.9 with the podinfo mount: ' +
      'sleep mode sets terminationDrainDuration through the annotations file; ' +
      'no advice to use env mode',
    input: stream(NLB_SERVICE, legacyGateway('docker.io/istio/proxyv2:1.9.0', true)),
    flags: SEED,
    only: true,
    changes: {
      [PRESTOP]: { sleep: { seconds: 180 } },
      [GRACE]: 200,
      [PROXY_CONFIG]: 'terminationDrainDuration: 10s\n',
    },
    findings: ['info GATEWAY_ENV_MODE_UNSUPPORTED'],
    absent: ['GATEWAY_TERMINATION_DRAIN_SHORT'],
  },
  {
    title:
      'legacy chart on Istio 1.9 without the mount: ' +
      'the termination-drain warning offers only what works at 1.9',
    input: stream(NLB_SERVICE, legacyGateway()),
    flags: SEED,
    findings: ['warning GATEWAY_TERMINATION_DRAIN_SHORT'],
    check: (t, result) => {
      const message = result.findings.find(
        (f) => f.code === 'GATEWAY_TERMINATION_DRAIN_SHORT',
      )!.message;
      t.notRegex(message, /gateway-mode env/);
      t.regex(message, /mount the pod's annotations at \/etc\/istio\/pod/);
      t.regex(message, /mesh-wide/);
    },
  },
  {
    title:
      'legacy chart on Istio 1.9, Kubernetes 1.28 without a shell: ' +
      'the no-preStop warning does not send the user to env mode',
    input: stream(NLB_SERVICE, legacyGateway()),
    flags: { ...SEED, 'kube-version': '1.28' },
    findings: ['warning GATEWAY_NO_PRESTOP'],
    check: (t, result) =>
      t.notRegex(
        result.findings.find((f) => f.code === 'GATEWAY_NO_PRESTOP')!.message,
        /gateway-mode env/,
      ),
  },
  {
    title:
      'Istio 1.20, Kubernetes 1.28 without a shell, sleep mode asked: env mode is offered, ' +
      'it works there',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'gateway-mode': 'sleep', 'kube-version': '1.28', 'istio-version': '1.20' },
    findings: ['warning GATEWAY_NO_PRESTOP'],
    check: (t, result) =>
      t.regex(
        result.findings.find((f) => f.code === 'GATEWAY_NO_PRESTOP')!.message,
        /Use --gateway-mode env/,
      ),
  },
  {
    title: 'a gateway whose labels are not istio: ingressgateway is found by structure',
    input: stream(
      NLB_SERVICE.replace('app: istio-public-ingressgateway', 'team.example.com/edge: public'),
      gateway({ labels: '        team.example.com/edge: public\n' }),
    ),
    flags: SEED,
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '180s', [GRACE]: 200 },
  },
  {
    title: 'a gateway DaemonSet behind in-cluster traffic: no rollout or PDB findings',
    input: stream(
      GENERIC_SERVICE.replace('type: LoadBalancer', 'type: ClusterIP'),
      gateway({ kind: 'DaemonSet', spec: '' }),
    ),
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '5s' },
    absent: [
      'GATEWAY_NO_PDB',
      'GATEWAY_ROLLOUT_UNAVAILABLE',
      'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM',
    ],
  },
  {
    title: 'released chart label gateway-1.11.4: Istio < 1.12, env mode falls back to sleep',
    input: stream(
      NLB_SERVICE,
      gateway({
        labels: '        app: istio-public-ingressgateway\n        helm.sh/chart: gateway-1.11.4\n',
      }),
    ),
    flags: SEED,
    changes: { [PRESTOP]: { sleep: { seconds: 180 } }, [ENV('MINIMUM_DRAIN_DURATION')]: undefined },
    findings: ['info GATEWAY_ENV_MODE_UNSUPPORTED'],
    check: (t, result) =>
      t.is(planOf(result).istio.source, 'pod template label helm.sh/chart: gateway-1.11.4'),
  },
  {
    title: 'released chart label gateway-1.24.6 wins over config istioVersion',
    input: stream(
      NLB_SERVICE,
      gateway({
        labels: '        app: istio-public-ingressgateway\n        helm.sh/chart: gateway-1.24.6\n',
      }),
    ),
    flags: { ...SEED, 'istio-version': '1.10' },
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '180s' },
    absent: ['GATEWAY_ENV_MODE_UNSUPPORTED'],
  },
  {
    title:
      'unreleased chart label gateway-1.0.0: config istioVersion decides, and the reason says so',
    input: stream(
      NLB_SERVICE,
      gateway({
        labels: '        app: istio-public-ingressgateway\n        helm.sh/chart: gateway-1.0.0\n',
      }),
    ),
    flags: { ...SEED, 'istio-version': '1.11' },
    changes: { [PRESTOP]: { sleep: { seconds: 180 } } },
    findings: ['info GATEWAY_ENV_MODE_UNSUPPORTED'],
    check: (t, result) =>
      t.regex(
        planOf(result).istio.source,
        new RegExp(
          String.raw`istioVersion from flag --istio-version; ` +
            String.raw`pod template label helm.sh\/chart: ` +
            String.raw`gateway-1.0.0 is the unreleased in-repo chart`,
        ),
      ),
  },
  {
    title: 'gateway mode off: nothing',
    input: stream(NLB_SERVICE, gateway()),
    flags: { 'gateway-mode': 'off' },
    only: true,
    changes: {},
    check: (t, result) => t.deepEqual(result.findings, []),
  },
  {
    title:
      'non-gateway workloads are untouched: an injected app, ' +
      'and an istio-proxy container without the gateway template',
    input: stream(
      NLB_SERVICE,
      gateway().replace('        inject.istio.io/templates: gateway\n', ''),
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: istio-system}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web, sidecar.istio.io/inject: "true"}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`,
    ),
    only: true,
    changes: {},
    check: (t, result) => {
      t.deepEqual(result.findings, []);
      t.is(result.output, result.input);
    },
  },
  {
    title: 'AWS IP targets, Namespace in the stream without the readiness-gate label: warning',
    input: stream(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: istio-system\n',
      NLB_SERVICE,
      gateway(),
    ),
    flags: SEED,
    findings: ['warning AWS_READINESS_GATE_LABEL_MISSING'],
    absent: ['AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM'],
  },
  {
    title: 'AWS IP targets, Namespace labelled: no readiness-gate finding',
    input: stream(
      'apiVersion: v1\n' +
        'kind: Namespace\n' +
        'metadata:\n' +
        '  name: istio-system\n' +
        '  labels:\n' +
        '    elbv2.k8s.aws/pod-readiness-gate-inject: enabled\n',
      NLB_SERVICE,
      gateway(),
    ),
    flags: SEED,
    absent: ['AWS_READINESS_GATE_LABEL_MISSING', 'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM'],
  },
  {
    title: 'AWS IP targets, Namespace not in the stream: info',
    input: stream(NLB_SERVICE, gateway()),
    flags: SEED,
    findings: ['info AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM'],
  },
  {
    title: 'generic load balancer: no readiness-gate finding',
    input: stream(GENERIC_SERVICE, gateway()),
    absent: ['AWS_READINESS_GATE_LABEL_MISSING', 'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM'],
  },
  {
    title: 'NLB with instance targets: no readiness-gate finding (IP targets only)',
    input: stream(
      NLB_SERVICE.replace(
        '    service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip\n',
        '',
      ),
      gateway(),
    ),
    findings: ['warning LB_ASSUMPTION'],
    absent: ['AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM'],
  },
  {
    title:
      'NLB with instance targets and externalTrafficPolicy Local: ' +
      'W from the node health check, no deregistration checks, no readiness gates; ' +
      'sleep mode, whose preStop holds readiness for W (the node forwards only while ready)',
    input: stream(
      NLB_SERVICE.replace(
        'aws-load-balancer-nlb-target-type: ip',
        'aws-load-balancer-nlb-target-type: instance',
      )
        .replace(
          'deregistration_delay.timeout_seconds=200',
          'deregistration_delay.timeout_seconds=10',
        )
        .replace(
          '  type: LoadBalancer\n',
          '  type: LoadBalancer\n  externalTrafficPolicy: Local\n',
        ),
      gateway(),
    ),
    flags: SEED,
    only: true,
    changes: {
      [PRESTOP]: { sleep: { seconds: 25 } },
      [GRACE]: 45,
      [PROXY_CONFIG]: 'terminationDrainDuration: 10s\n',
    },
    findings: ['info GATEWAY_SLEEP_MODE_FOR_LOCAL'],
    absent: [
      'LB_DEREGISTRATION_TOO_SHORT',
      'LB_DEREGISTRATION_OUTLIVES_GRACE',
      'AWS_READINESS_GATE_NAMESPACE_NOT_IN_STREAM',
      'LB_ASSUMPTION',
    ],
    check: (t, result) => {
      t.is(planOf(result).mode, 'sleep');
      t.is(planOf(result).loadBalancer?.provider, 'aws-nlb-instance');
      t.is(planOf(result).loadBalancer?.targetType, 'instance');
      t.is(planOf(result).inputs.loadBalancer, undefined, 'a pod deletion deregisters no node');
    },
  },
  {
    title:
      'NLB instance targets with Local and env mode asked for: env mode kept, a warning that ' +
      'the outcome rests on the injected readiness probe',
    input: stream(NLB_INSTANCE_LOCAL_SERVICE, gateway()),
    flags: { ...SEED, 'gateway-mode': 'env' },
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '25s', [GRACE]: 45 },
    findings: ['warning GATEWAY_NODE_LOCAL'],
    absent: ['GATEWAY_SLEEP_MODE_FOR_LOCAL'],
    check: (t, result) => t.is(planOf(result).mode, 'env'),
  },
  {
    title:
      'NLB instance targets with Local on Kubernetes 1.25: a node forwards nothing to a ' +
      'terminating pod, a warning that no setting of the pod helps',
    input: stream(NLB_INSTANCE_LOCAL_SERVICE, gateway()),
    flags: { ...SEED, 'kube-version': '1.25' },
    findings: ['warning GATEWAY_NODE_LOCAL'],
    absent: ['GATEWAY_SLEEP_MODE_FOR_LOCAL'],
    check: (t, result) =>
      t.regex(
        result.findings.find((f) => f.code === 'GATEWAY_NODE_LOCAL')!.message,
        /before Kubernetes 1\.26 \(this is 1\.25\) a node forwards nothing to a terminating pod/,
      ),
  },

  {
    title:
      'GKE NEG with its BackendConfig in the stream: W = 30, the connections close at ' +
      '30 + drainingTimeoutSec, after the drain; no "not in the stream" warning',
    input: stream(
      negService(`    cloud.google.com/backend-config: '{"ports": {"80": "gw-drain"}}'\n`),
      'apiVersion: cloud.google.com/v1\n' +
        'kind: BackendConfig\n' +
        'metadata:\n' +
        '  name: gw-drain\n' +
        '  namespace: istio-system\n' +
        'spec:\n' +
        '  connectionDraining:\n' +
        '    drainingTimeoutSec: 60\n',
      gateway(),
    ),
    flags: SEED,
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '30s', [GRACE]: 50 },
    absent: ['LB_ASSUMPTION', 'LB_DEREGISTRATION_TOO_SHORT'],
    check: (t, result) => {
      const closing = planOf(result).inputs.loadBalancer;
      t.is(closing?.closing, 'gke-connection-draining');
      t.is(closing?.deregistrationDelaySeconds?.value, 90);
      t.regex(
        sourceText(closing!.deregistrationDelaySeconds!.source),
        /then BackendConfig gw-drain connectionDraining.drainingTimeoutSec 60 s/,
      );
    },
  },
  {
    title:
      'GKE NEG without a BackendConfig: draining is off, so the connections close when the ' +
      'endpoint is removed (≈ W), while requests are in flight: a warning',
    input: stream(negService(), gateway()),
    flags: SEED,
    changes: { [ENV('MINIMUM_DRAIN_DURATION')]: '30s', [GRACE]: 50 },
    findings: ['warning LB_DEREGISTRATION_TOO_SHORT'],
  },
  {
    title: '2 replicas with maxUnavailable 1: info',
    input: stream(
      NLB_SERVICE,
      gateway({
        spec: '  replicas: 2\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 1\n',
      }),
    ),
    findings: ['info GATEWAY_ROLLOUT_UNAVAILABLE'],
  },
  {
    title: '1 replica with maxUnavailable 100%: warning',
    input: stream(
      NLB_SERVICE,
      gateway({
        spec: '  replicas: 1\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 100%\n',
      }),
    ),
    findings: ['warning GATEWAY_ROLLOUT_UNAVAILABLE'],
  },
  {
    title: 'replicas unset with the default 25%: rounds down to 0, no rollout finding',
    input: stream(NLB_SERVICE, gateway({ spec: '' })),
    absent: ['GATEWAY_ROLLOUT_UNAVAILABLE'],
  },
  {
    title: 'Recreate: warning',
    input: stream(
      NLB_SERVICE,
      gateway({ spec: '  replicas: 3\n  strategy:\n    type: Recreate\n' }),
    ),
    findings: ['warning GATEWAY_ROLLOUT_UNAVAILABLE'],
  },
  {
    title:
      'a PodDisruptionBudget selecting the gateway pods: no PDB finding; ' +
      'one selecting others: info',
    input: stream(
      NLB_SERVICE,
      gateway(),
      'apiVersion: policy/v1\n' +
        'kind: PodDisruptionBudget\n' +
        'metadata: {name: gw, namespace: istio-system}\n' +
        'spec:\n' +
        '  minAvailable: 1\n' +
        '  selector:\n' +
        '    matchExpressions:\n' +
        '    - {key: app, operator: In, values: [istio-public-ingressgateway]}\n',
    ),
    absent: ['GATEWAY_NO_PDB'],
  },
  {
    title: 'a PodDisruptionBudget in another namespace does not count',
    input: stream(
      NLB_SERVICE,
      gateway(),
      'apiVersion: policy/v1\n' +
        'kind: PodDisruptionBudget\n' +
        'metadata: {name: gw, namespace: other}\n' +
        'spec:\n' +
        '  minAvailable: 1\n' +
        '  selector:\n' +
        '    matchLabels: {app: istio-public-ingressgateway}\n',
    ),
    findings: ['info GATEWAY_NO_PDB'],
  },
  {
    title: 'obsolete settings of the user are reported, kept, and never written',
    input: stream(
      NLB_SERVICE,
      gateway({
        annotations: '        proxy.istio.io/config: |\n          parentShutdownDuration: 60s\n',
        container:
          '          env:\n' +
          '          - name: TERMINATION_DRAIN_DURATION_SECONDS\n' +
          '            value: "60"\n',
      }),
    ),
    flags: SEED,
    findings: ['info GATEWAY_OBSOLETE_SETTING', 'info GATEWAY_OBSOLETE_SETTING'],
    changes: { [PROXY_CONFIG]: 'parentShutdownDuration: 60s\ndrainDuration: 190s\n' },
  },
  {
    title:
      'Istio 1.16: parentShutdownDuration written above drainDuration in the same merge, ' +
      'and said why',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'istio-version': '1.16' },
    changes: { [PROXY_CONFIG]: 'drainDuration: 190s\nparentShutdownDuration: 205s\n' },
    absent: ['GATEWAY_OBSOLETE_SETTING'],
    check: (t, result) => {
      const reason = result.changes.find((c) => formatPath(c.path) === PROXY_CONFIG)!.reason;
      t.regex(reason, /^proxy\.istio\.io\/config drainDuration = "190s"/);
      t.regex(reason, /parentShutdownDuration = "205s": drainDuration \+ 15 = 190 \+ 15 = 205/);
      t.regex(reason, /validation\.go@1\.16\.7 ValidateParentAndDrain/);
    },
  },
  {
    title:
      'Istio version unknown (in-repo chart, nothing stated): ' +
      'parentShutdownDuration written too, and the report says the version is unknown',
    input: stream(NLB_SERVICE, gateway()),
    flags: { 'max-request': '10', buffer: '10' },
    changes: { [PROXY_CONFIG]: 'drainDuration: 190s\nparentShutdownDuration: 205s\n' },
    check: (t, result) => {
      t.false(planOf(result).istio.known);
      t.regex(
        result.changes.find((c) => formatPath(c.path) === PROXY_CONFIG)!.reason,
        /a version nothing in the manifest states/,
      );
    },
  },
  {
    title: 'Istio 1.17: nothing is written to parentShutdownDuration, which 1.17 ignores',
    input: stream(NLB_SERVICE, gateway()),
    flags: { ...SEED, 'istio-version': '1.17' },
    changes: { [PROXY_CONFIG]: 'drainDuration: 190s\n' },
  },
  {
    title:
      "Istio 1.16, the user's parentShutdownDuration already above the plan's drainDuration: kept",
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "parentShutdownDuration: 10m"\n' }),
    ),
    flags: { ...SEED, 'istio-version': '1.16' },
    changes: { [PROXY_CONFIG]: 'parentShutdownDuration: 10m\ndrainDuration: 190s' },
    absent: ['GATEWAY_OBSOLETE_SETTING'],
  },
  {
    title:
      "Istio 1.16, the user's longer drainDuration with the default parent: " +
      'only parentShutdownDuration is added',
    input: stream(
      NLB_SERVICE,
      gateway({ annotations: '        proxy.istio.io/config: "drainDuration: 5m"\n' }),
    ),
    flags: { ...SEED, 'istio-version': '1.16' },
    changes: { [PROXY_CONFIG]: 'drainDuration: 5m\nparentShutdownDuration: 315s' },
  },
  {
    title:
      'a grace period beyond a day is a legal manifest value: kept, never lowered; ' +
      'the drain is still set',
    input: stream(
      NLB_SERVICE,
      gateway({ podSpec: '      terminationGracePeriodSeconds: 100000\n' }),
    ),
    changes: { [GRACE]: undefined, [ENV('MINIMUM_DRAIN_DURATION')]: '180s' },
    absent: ['GATEWAY_TIMING_INPUT'],
  },
];

for (const c of cases) {
  test(c.title, (t) => {
    const flags = c.flags ?? {};
    const result = run(c.input, flags);
    const got = changed(result);
    for (const [path, value] of Object.entries(c.changes ?? {})) {
      if (value === undefined) t.false(path in got, `${path} must not change`);
      else t.deepEqual(got[path], value, path);
    }
    if (c.only) t.deepEqual(Object.keys(got).sort(), Object.keys(c.changes ?? {}).sort());
    const found = codes(result);
    for (const finding of c.findings ?? [])
      t.true(found.includes(finding), `${finding} in ${found.join(', ')}`);
    if (c.findings)
      t.is(
        found.filter((f) => c.findings!.includes(f)).length,
        c.findings.length,
        'each expected finding once',
      );
    for (const code of c.absent ?? [])
      t.false(
        found.some((f) => f.endsWith(` ${code}`)),
        `${code} must be absent`,
      );
    c.check?.(t, result);
    invariants(t, c.input, flags, result);
  });
}

test('every gateway change and finding is recorded under gateway-drain with the workload', (t) => {
  const result = run(stream(NLB_SERVICE, gateway()), SEED);
  t.true(result.changes.length > 0);
  for (const record of [...result.changes, ...result.findings]) {
    t.is(record.mutator, 'gateway-drain');
    t.is(record.resource?.name, 'istio-public-ingressgateway');
  }
});

// ---------------------------------------------------------------------------------------------
// helpers, table-driven
// ---------------------------------------------------------------------------------------------

const preStops: Array<[unknown, number | 'unknown' | undefined]> = [
  [undefined, undefined],
  [null, undefined],
  [{}, undefined],
  [{ sleep: { seconds: 45 } }, 45],
  [{ exec: { command: ['sleep', '30'] } }, 30],
  [{ exec: { command: ['/bin/sleep', '2m'] } }, 120],
  [{ exec: { command: ['sh', '-c', 'sleep 15'] } }, 15],
  [{ exec: { command: ['/bin/sh', '-c', ' sleep 7.5; '] } }, 8],
  [{ exec: { command: ['sh', '-c', 'sleep 5 && curl -X POST localhost:15020/drain'] } }, 'unknown'],
  [{ exec: { command: ['sleep', 'infinity'] } }, 'unknown'],
  [{ httpGet: { path: '/', port: 80 } }, 'unknown'],
  [{ tcpSocket: { port: 80 } }, 'unknown'],
];
for (const [hook, expected] of preStops) {
  test(`existing preStop ${JSON.stringify(hook)} → ${String(expected)}`, (t) => {
    t.is(existingPreStopSeconds(hook), expected);
  });
}

const proxyConfigs: Array<[string, string | undefined]> = [
  ['', 'drainDuration: 190s\n'],
  ['terminationDrainDuration: 10s\n', 'terminationDrainDuration: 10s\ndrainDuration: 190s\n'],
  // A flow map gets the new entry in its own plain style (issue #15 item 4), JSON in a JSON one.
  ['{terminationDrainDuration: 10s}', '{terminationDrainDuration: 10s, drainDuration: 190s}'],
  [
    '{"terminationDrainDuration": "10s"}',
    '{"terminationDrainDuration": "10s", "drainDuration": "190s"}',
  ],
  ['drainDuration: 45s # short\nconcurrency: 2\n', 'drainDuration: 190s # short\nconcurrency: 2\n'],
  ['a: !!str 5\n', undefined],
  ['[1, 2]', undefined],
  ['a: [1\n', undefined],
  ['a: 1\n---\nb: 2\n', undefined],
];
for (const [text, expected] of proxyConfigs) {
  test(`proxy.istio.io/config ${JSON.stringify(text)} + drainDuration 190s → ${JSON.stringify(expected)}`, (t) => {
    t.is(setProxyConfigField(text, ['drainDuration'], '190s'), expected);
    t.is(readProxyConfig(text).ok, expected !== undefined);
  });
}

// The reader and the setter keep results by text (issue #16): asked again, past the bound of
// their tables, the answer is the same, and the fields every caller shares cannot be changed.
test('proxy.istio.io/config: the same answer again, also after many other texts', (t) => {
  const first = proxyConfigs.map(([text]) => setProxyConfigField(text, ['drainDuration'], '190s'));
  for (let i = 0; i < 600; i++) setProxyConfigField(`concurrency: ${i}\n`, ['drainDuration'], '5s');
  t.deepEqual(
    proxyConfigs.map(([text]) => setProxyConfigField(text, ['drainDuration'], '190s')),
    first,
  );
  // `true` and `"true"` are different edits.
  t.is(
    setProxyConfigField('', ['holdApplicationUntilProxyStarts'], true),
    'holdApplicationUntilProxyStarts: true\n',
  );
  t.is(
    setProxyConfigField('', ['holdApplicationUntilProxyStarts'], 'true'),
    'holdApplicationUntilProxyStarts: "true"\n',
  );
});

test('proxy.istio.io/config: read fields are frozen, since every reader of the text shares them', (t) => {
  const read = readProxyConfig('proxyMetadata:\n  MINIMUM_DRAIN_DURATION: 5s\n');
  if (!read.ok) return t.fail(read.problem);
  t.deepEqual(read.fields, { proxyMetadata: { MINIMUM_DRAIN_DURATION: '5s' } });
  t.throws(() => {
    (read.fields['proxyMetadata'] as Record<string, string>)['MINIMUM_DRAIN_DURATION'] = '1s';
  });
  t.deepEqual(readProxyConfig('proxyMetadata:\n  MINIMUM_DRAIN_DURATION: 5s\n'), read);
});
