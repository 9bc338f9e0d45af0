// The overlays the decision writes, applied the way istiod applies them: a strategic merge patch
// onto the Deployment it generated, class defaults first, then the Gateway's parameters
// (render/applyOverlay, pilot/pkg/config/kube/gateway/deploymentcontroller.go@1.26.8;
// gatewaycommon/deploymentcontroller.go@1.30.3). The merge is done by the real kubectl
// (`kubectl patch --local --type strategic`, the same k8s.io/apimachinery strategicpatch code
// istiod calls) onto Istio's own generated Deployment (pilot-testdata/simple-1.30.3.yaml), and the
// resulting pod must hold the plan.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { parse, stringify } from 'yaml';
import { istioGatewayClasses } from '../../../fn/mutators/istio-gateway-api/objects.ts';
import type {
  ConfigMapObject,
  GatewayObject,
} from '../../../fn/mutators/istio-gateway-api/objects.ts';
import { planIstioGatewayApi } from '../../../fn/mutators/istio-gateway-api/plan.ts';
import type { IstioGatewayApiOutcome } from '../../../fn/mutators/istio-gateway-api/decision.ts';
import type { KubeObject, PodTemplate } from '../../../fn/core/kubeObject.ts';
import { requireTool } from '../../helpers/tools.ts';
import { fixtureObjects, only } from './fixtures.ts';
import { fromFlag } from '../../helpers/sources.ts';

const kubectl = requireTool('kubectl');
const SEED = {
  maxRequest: { value: 10, source: fromFlag('max-request') },
  buffer: { value: 10, source: fromFlag('buffer') },
};

function decide(objects: KubeObject[]): IstioGatewayApiOutcome {
  const gateway = objects.find((o) => o.kind === 'Gateway') as GatewayObject;
  const className = String(gateway.spec?.gatewayClassName);
  if (!istioGatewayClasses(objects).has(className))
    throw new Error(`${className} is not an Istio class`);
  return planIstioGatewayApi({
    gateway,
    objects,
    className,
    istioVersion: { major: 1, minor: 30, source: 'test' },
    istiodNamespace: 'istio-system',
    kubernetesVersion: '1.31',
    ...SEED,
  });
}

/** Returns Istio's generated Deployment with `overlays` merged in order by kubectl's strategic
 * merge. */
function generatedWith(overlays: readonly string[]): KubeObject {
  const dir = mkdtempSync(join(tmpdir(), 'kg-istio-gw-api-'));
  try {
    let current = stringify(only('pilot-testdata/simple-1.30.3.yaml', 'Deployment'));
    overlays.forEach((overlay, i) => {
      writeFileSync(join(dir, 'object.yaml'), current);
      writeFileSync(join(dir, `overlay-${i}.yaml`), overlay);
      const run = spawnSync(
        kubectl,
        [
          'patch',
          '--local',
          '-f',
          join(dir, 'object.yaml'),
          '--type',
          'strategic',
          '--patch-file',
          join(dir, `overlay-${i}.yaml`),
          '-o',
          'yaml',
        ],
        { encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`kubectl patch: ${run.stderr}`);
      current = run.stdout;
    });
    return parse(current) as KubeObject;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function proxyOf(deployment: KubeObject) {
  const template = deployment.spec.template as PodTemplate;
  const proxy = template.spec!.containers!.find((c) => c.name === 'istio-proxy')!;
  const env = Object.fromEntries(proxy.env!.map((e) => [e.name, e.value ?? 'valueFrom']));
  return { template, proxy, env };
}

test('NLB Gateway: the new ConfigMap merged into the generated Deployment gives G = 200, M = 180 s, exit-on-zero and drainDuration 190s, the rest kept', (t) => {
  const outcome = decide(fixtureObjects('variants/gateway-nlb.yaml'));
  const before = proxyOf(only('pilot-testdata/simple-1.30.3.yaml', 'Deployment'));
  const after = proxyOf(generatedWith([String(outcome.create!.configMap.data!['deployment'])]));
  t.is(after.template.spec!.terminationGracePeriodSeconds, 200);
  t.is(after.env['MINIMUM_DRAIN_DURATION'], '180s');
  t.is(after.env['EXIT_ON_ZERO_ACTIVE_CONNECTIONS'], 'true');
  t.is(after.template.metadata!.annotations!['proxy.istio.io/config'], 'drainDuration: 190s\n');
  // Every env entry and annotation istiod wrote is still there: merged by name, not replaced.
  for (const [name, value] of Object.entries(before.env)) t.is(after.env[name], value, name);
  for (const [key, value] of Object.entries(before.template.metadata!.annotations!))
    t.is(after.template.metadata!.annotations![key], value, key);
  t.is(after.proxy.image, before.proxy.image);
  t.deepEqual(after.proxy.args, before.proxy.args);
});

test("tuned class defaults then the Gateway's new ConfigMap: the operator's grace 600 and MINIMUM_DRAIN_DURATION 300s hold, exit-on-zero and drainDuration added", (t) => {
  const objects = [
    ...fixtureObjects('samples/bookinfo-gateway-1.30.3.yaml'),
    ...fixtureObjects('helm/istiod-1.30.3-tuned-gatewayclass.yaml'),
  ];
  const outcome = decide(objects);
  const classDefaults = objects.find((o) => o.kind === 'ConfigMap') as ConfigMapObject;
  const after = proxyOf(
    generatedWith([
      String(classDefaults.data!['deployment']),
      String(outcome.create!.configMap.data!['deployment']),
    ]),
  );
  t.is(after.template.spec!.terminationGracePeriodSeconds, 600);
  t.is(after.env['MINIMUM_DRAIN_DURATION'], '300s');
  t.is(after.env['EXIT_ON_ZERO_ACTIVE_CONNECTIONS'], 'true');
  t.is(after.template.metadata!.annotations!['proxy.istio.io/config'], 'drainDuration: 190s\n');
});

test("Istio's customizations overlay, merged by kube-graceful: the user's replicas and resources and the plan, together", (t) => {
  const outcome = decide(fixtureObjects('variants/gateway-params-gw-options.yaml'));
  const deployment = generatedWith([String(outcome.changes[0]!.value)]);
  const after = proxyOf(deployment);
  t.is(deployment.spec.replicas, 4);
  t.is(deployment.metadata!.annotations!['cm-annotation'], 'cm-annotation-value');
  t.is(
    (after.proxy as { resources?: { requests?: Record<string, string> } }).resources?.requests?.[
      'cpu'
    ],
    '222m',
  );
  // The default W here: the sample's Service is type LoadBalancer with no provider annotation (15
  // s).
  t.is(after.template.spec!.terminationGracePeriodSeconds, 15 + 10 + 10);
  t.is(after.env['MINIMUM_DRAIN_DURATION'], '15s');
  t.is(after.env['EXIT_ON_ZERO_ACTIVE_CONNECTIONS'], 'true');
});
