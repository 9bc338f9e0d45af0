/**
 * Object mutators (issue #19 item 2): the engine hands a mutator the objects of its kinds
 * (Envoy Gateway's EnvoyProxy) with the objects it reads (GatewayClass, Gateway) wherever they
 * stand in the stream, in a plain stream and in a ResourceList through the real kpt, and the
 * kinds the pre-scan parses are the registry's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { formatPath } from '../../fn/core/fieldPath.ts';
import { objectKindsOf, REGISTERED_OBJECT_KINDS } from '../../fn/engine/objectKinds.ts';
import { transform } from '../../fn/engine/transform.ts';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { objectKindsIn } from '../../fn/workloads/kinds.ts';
import { runCli } from '../helpers/cli.ts';
import { cliPath, fixturePath } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';

const envoy = (name: string) =>
  readFileSync(fixturePath('gateways', 'envoy-gateway', name), 'utf8');
const split = (text: string) => text.split(/^---\n/m).filter((d) => d.trim() !== '');
/** The class's EnvoyProxy example, then the Gateway-level one whose own EnvoyProxy (no mergeType)
 * replaces the class's. */
const CLASS_AND_GATEWAY = [
  ...split(envoy('examples-v1.9.0-envoy-proxy-config.yaml')),
  ...split(envoy('docs-v1.9.0-graceful-shutdown-gateway-level.yaml')),
];

const summary = (input: string) => {
  const result = transform(input);
  return {
    changes: result.changes
      .map(
        (c) => `${c.resource.name} ${formatPath(c.path)} ${String(c.before)} → ${String(c.after)}`,
      )
      .sort(),
    findings: result.findings.map((f) => `${f.resource?.name} ${f.code}`).sort(),
  };
};

test('the kinds the pre-scan parses for object mutators are derived from the registry', (t) => {
  // envoy-gateway changes EnvoyProxies and Envoy Gateway's config (a ConfigMap), and reports on
  // Gateways (#19 item 1).
  t.deepEqual([...REGISTERED_OBJECT_KINDS.changed].sort(), ['ConfigMap', 'EnvoyProxy', 'Gateway']);
  // Both read GKE BackendConfigs, which a NEG's generated Service may name.
  t.deepEqual([...REGISTERED_OBJECT_KINDS.read].sort(), [
    'BackendConfig',
    'ConfigMap',
    'EnvoyProxy',
    'Gateway',
    'GatewayClass',
  ]);
  t.deepEqual(objectKindsOf(MUTATORS.filter((m) => m.subject === 'workload')), {
    changed: new Set(),
    read: new Set(),
    byMutator: [],
  });
});

test("a mutator's reads are parsed only where one of its own kinds may be in the input", (t) => {
  const ofKinds = (docs: Array<string | undefined | [string, string]>) => {
    const kinds = objectKindsIn(
      REGISTERED_OBJECT_KINDS,
      docs.map((d) => (Array.isArray(d) ? { kind: d[0], text: d[1] } : { kind: d, text: '' })),
    )!;
    return {
      parsedWhole: [...kinds.changed, ...kinds.read]
        .filter((k, i, all) => all.indexOf(k) === i)
        .sort(),
      byMention: Object.fromEntries(kinds.mentioned ?? []),
    };
  };
  const CONFIG = 'envoy-gateway.yaml';
  // No Gateway, no EnvoyProxy, no Envoy Gateway config: only the object kinds themselves, and
  // a ConfigMap only if it is Envoy Gateway's config (a broken ConfigMap elsewhere passes through
  // unparsed, as it always did).
  t.deepEqual(ofKinds(['Deployment', ['ConfigMap', 'data: {}'], 'Service']), {
    parsedWhole: ['EnvoyProxy', 'Gateway'],
    byMention: { ConfigMap: [CONFIG] },
  });
  // A Gateway: istio-gateway-api and envoy-gateway both need their reads; istio-gateway-api
  // reads every ConfigMap.
  t.deepEqual(ofKinds(['Gateway']).parsedWhole, [
    'BackendConfig',
    'ConfigMap',
    'EnvoyProxy',
    'Gateway',
    'GatewayClass',
  ]);
  // Envoy Gateway's config alone: envoy-gateway's reads, its ConfigMaps by mention only.
  t.deepEqual(ofKinds([['ConfigMap', `data:\n  ${CONFIG}: |`]]), {
    parsedWhole: ['BackendConfig', 'EnvoyProxy', 'Gateway', 'GatewayClass'],
    byMention: { ConfigMap: [CONFIG, CONFIG] },
  });
  // A document the pre-scan cannot name may be anything.
  t.deepEqual(ofKinds(['Deployment', undefined]).parsedWhole, [
    'BackendConfig',
    'ConfigMap',
    'EnvoyProxy',
    'Gateway',
    'GatewayClass',
  ]);
});

test('an EnvoyProxy is planned with the Gateways and GatewayClasses of the whole stream, in any order', (t) => {
  const forward = summary(CLASS_AND_GATEWAY.map((d) => `---\n${d}`).join(''));
  const backward = summary(
    [...CLASS_AND_GATEWAY]
      .reverse()
      .map((d) => `---\n${d}`)
      .join(''),
  );
  t.deepEqual(forward, backward);
  // D = 40 s is below the shutdown manager's 60 s default, so no drainTimeout is written.
  t.deepEqual(forward.changes, [
    'config spec.shutdown.minDrainDuration undefined → 15s',
    'graceful-shutdown-config spec.shutdown.minDrainDuration 15s → 55s',
  ]);
  // The Gateway's own EnvoyProxy replaces the class's: said once, on the Gateway it is about.
  t.deepEqual(forward.findings, [
    'eg EG_GATEWAY_PROXY_REPLACES_CLASS',
    'graceful-shutdown-config EG_MIN_DRAIN_BELOW_WINDOW',
  ]);
});

test('envoy-gateway-mode off leaves every EnvoyProxy as written', (t) => {
  const input = envoy('examples-v1.9.0-envoy-proxy-config-nlb.yaml');
  const run = runCli(['--envoy-gateway-mode', 'off'], input);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, input);
});

for (const name of [
  'examples-v1.9.0-envoy-proxy-config.yaml',
  'examples-v1.9.0-envoy-proxy-config-nlb.yaml',
  'docs-v1.9.0-graceful-shutdown-gateway-level.yaml',
]) {
  test(`check on the patched ${name} finds nothing left to change`, (t) => {
    const before = runCli(['check'], envoy(name));
    t.is(before.status, 1, 'as written, the EnvoyProxy fails the check');
    t.regex(before.stdout, /change: envoy-gateway .*spec\.shutdown\.minDrainDuration/);
    const patched = runCli([], envoy(name));
    t.is(patched.status, 0, patched.stderr);
    const after = runCli(['check'], patched.stdout);
    t.is(after.status, 0, after.stdout);
    t.regex(after.stdout, /nothing would change/);
  });
}

test('through kpt: kpt fn source | kube-graceful | kpt fn sink sets the EnvoyProxy of a package', (t) => {
  const kpt = requireTool('kpt');
  const dir = mkdtempSync(join(tmpdir(), 'kg-envoy-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(
    join(pkg, 'envoy-proxy-config.yaml'),
    envoy('examples-v1.9.0-envoy-proxy-config-nlb.yaml'),
  );
  const source = execFileSync(kpt, ['fn', 'source', pkg], { encoding: 'utf8' });
  const run = spawnSync(process.execPath, [cliPath()], { input: source, encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  const out = join(dir, 'out');
  execFileSync(kpt, ['fn', 'sink', out], { input: run.stdout, stdio: ['pipe', 'pipe', 'pipe'] });
  const written = readFileSync(join(out, 'envoy-proxy-config.yaml'), 'utf8');
  t.regex(written, /\n {2}shutdown:\n {4}minDrainDuration: 180s\n {4}drainTimeout: 205s\n/);
});
