/**
 * kpt 1.0.0-beta.56 with kube-graceful as a KRM function: `fn eval -` (stdin → stdout),
 * `fn eval DIR` with `-- key=value` and with flags inside `--exec`, `fn render --allow-exec` with a
 * Kptfile mutator (exec path resolved from the current directory), an error result failing kpt
 * without touching the package, and the container form for real: `fn eval --image` and `fn render`
 * with an image pipeline, KPT_FN_RUNTIME=podman running localhost/kube-graceful:dev built from this
 * tree, on a real chart render.
 */
import test from 'ava';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  assertGatewayPatched,
  assertJobNative,
  assertJobWrapped,
  binDirWithKubeGraceful,
  cliPath,
  doc,
  ROOT,
  run,
  runCliAsync,
  runOk,
  splitDocs,
  tempDir,
  withErrorFinding,
  withPath,
} from '../helpers/integration.ts';
import { builtImage, optionValue, podmanShim } from '../helpers/container.ts';
import { corpus } from '../helpers/fixtures.ts';
import { requireTool } from '../helpers/tools.ts';

const kpt = requireTool('kpt');
const rendered = readFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), 'utf8');
const packageDir = join(ROOT, 'examples', 'kpt-eval', 'package');
/** The Istio gateway chart 1.30.3 behind an AWS NLB, as `helm template` renders it. */
const GATEWAY_CHART = 'istio-gateway-1.30.3-nlb.yaml';
const GATEWAY = 'istio-public-ingressgateway';
const KPTFILE = 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: istio-gateway\n';

/** A copy of the example package in a temp folder. */
function packageCopy(name: string): string {
  const dir = join(tempDir(`kpt-${name}`), 'package');
  cpSync(packageDir, dir, { recursive: true });
  return dir;
}

/** The files of a package folder, name → text. */
function files(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

test('kpt fn eval - --exec kube-graceful -o unwrap: stdin to stdout, as kube-graceful alone', async (t) => {
  const [out, direct] = await Promise.all([
    runOk(t, kpt, ['fn', 'eval', '-', '--exec', cliPath(), '-o', 'unwrap'], { input: rendered }),
    runCliAsync([], rendered),
  ]);
  const a = splitDocs(out);
  assertGatewayPatched(t, doc(t, a, 'Deployment', 'demo-gateway').object, 'kpt fn eval -');
  assertJobNative(t, doc(t, a, 'Job', 'demo-migrate').object, 'kpt fn eval -');
  const d = splitDocs(direct.stdout);
  for (const [kind, name] of [
    ['Deployment', 'demo-gateway'],
    ['Job', 'demo-migrate'],
    ['ConfigMap', 'demo-settings'],
    ['Service', 'demo-gateway'],
  ] as const) {
    t.deepEqual(doc(t, a, kind, name).object, doc(t, d, kind, name).object, `${kind} ${name}`);
  }
  t.true(out.includes('# Source: graceful-demo/templates/deployment.yaml'), 'comments survive kpt');
});

test('kpt fn eval DIR --exec … -- key=value edits the package in place: names, comments and untouched files kept', async (t) => {
  const [byKeys, byFlags] = [packageCopy('keys'), packageCopy('flags')];
  const before = files(packageDir);
  await Promise.all([
    runOk(t, kpt, [
      'fn',
      'eval',
      byKeys,
      '--exec',
      cliPath(),
      '--',
      'kube-version=1.28',
      'lb-provider=aws-nlb-ip',
    ]),
    runOk(t, kpt, [
      'fn',
      'eval',
      byFlags,
      '--exec',
      `${cliPath()} --kube-version 1.28 --lb-provider aws-nlb-ip`,
    ]),
  ]);
  const after = files(byKeys);
  t.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'same file names');
  t.is(after['settings.yaml'], before['settings.yaml'], 'settings.yaml byte-identical');
  t.is(after['Kptfile'], before['Kptfile'], 'Kptfile byte-identical');
  t.true(after['gateway.yaml']!.startsWith('# The ingress gateway'), 'leading comment kept');
  t.true(
    after['migrate-job.yaml']!.startsWith('# Runs once after install'),
    'leading comment kept',
  );
  assertGatewayPatched(
    t,
    doc(t, splitDocs(after['gateway.yaml']!), 'Deployment', 'demo-gateway').object,
    'kpt fn eval DIR',
  );
  // kube-version=1.28 reached us (ConfigMap functionConfig): no native sidecars, the command is
  // wrapped.
  assertJobWrapped(
    t,
    doc(t, splitDocs(after['migrate-job.yaml']!), 'Job', 'demo-migrate').object,
    'kpt fn eval DIR -- kube-version=1.28',
  );
  t.deepEqual(files(byFlags), after, 'flags inside --exec "path args" = key=value settings');
});

test('kpt fn render --allow-exec runs the Kptfile mutator; a relative exec path is resolved from the current directory', async (t) => {
  const root = tempDir('kpt-render');
  binDirWithKubeGraceful(root); // root/bin/kube-graceful
  const pkg = join(root, 'package');
  cpSync(join(ROOT, 'examples', 'kpt-render', 'package'), pkg, { recursive: true });
  const kptfile = join(pkg, 'Kptfile');
  const original = readFileSync(kptfile, 'utf8');
  t.regex(original, /- exec: kube-graceful\n/);
  writeFileSync(
    kptfile,
    original
      .replace('- exec: kube-graceful\n', '- exec: ./bin/kube-graceful\n')
      .replace('kube-version: "1.31"', 'kube-version: "1.28"'),
  );
  const pristine = files(pkg);

  // From inside the package, ./bin/kube-graceful does not exist: kpt fails, nothing written.
  const inside = await run(kpt, ['fn', 'render', '.', '--allow-exec'], { cwd: pkg });
  t.not(inside.status, 0);
  t.regex(inside.stdout + inside.stderr, /no such file or directory/);
  t.deepEqual(files(pkg), pristine);

  // From the folder holding bin/: it runs, with the Kptfile's configMap as settings.
  await runOk(t, kpt, ['fn', 'render', 'package', '--allow-exec'], { cwd: root });
  const after = files(pkg);
  assertGatewayPatched(
    t,
    doc(t, splitDocs(after['gateway.yaml']!), 'Deployment', 'demo-gateway').object,
    'kpt fn render',
  );
  assertJobWrapped(
    t,
    doc(t, splitDocs(after['migrate-job.yaml']!), 'Job', 'demo-migrate').object,
    'kpt fn render, configMap kube-version "1.28"',
  );
  t.is(after['settings.yaml'], pristine['settings.yaml']);

  // The example as shipped: `exec: kube-graceful` found on PATH, from any directory.
  const shipped = packageCopy('render-path');
  cpSync(join(ROOT, 'examples', 'kpt-render', 'package', 'Kptfile'), join(shipped, 'Kptfile'));
  await runOk(t, kpt, ['fn', 'render', '.', '--allow-exec'], {
    cwd: shipped,
    env: withPath(process.env, join(root, 'bin')),
  });
  assertJobNative(
    t,
    doc(
      t,
      splitDocs(readFileSync(join(shipped, 'migrate-job.yaml'), 'utf8')),
      'Job',
      'demo-migrate',
    ).object,
    'kpt fn render, exec on PATH',
  );
});

/**
 * A package of the rendered Istio gateway chart (one file, as `helm template` wrote it) with a
 * Kptfile.
 */
function gatewayPackage(name: string, kptfile: string): string {
  const dir = join(tempDir(`kpt-${name}`), 'package');
  mkdirSync(dir);
  writeFileSync(join(dir, 'Kptfile'), kptfile);
  writeFileSync(join(dir, 'gateway.yaml'), corpus(GATEWAY_CHART));
  return dir;
}

/** kpt with its podman runtime, through a recording `podman` shim first on PATH. */
function podmanEnv(name: string) {
  const podman = podmanShim(tempDir(`kpt-${name}`), 'podman');
  return { podman, env: { ...withPath(process.env, podman.dir), KPT_FN_RUNTIME: 'podman' } };
}

test('kpt fn eval --image runs the image with podman run --network none --user nobody (full image name: kpt rewrites bare ones)', async (t) => {
  const image = await builtImage();
  const { podman, env } = podmanEnv('eval-image');
  const pkg = gatewayPackage('eval-image', KPTFILE);
  const bare = image.replace(/^localhost\//, '');
  const [, direct, rewritten] = await Promise.all([
    runOk(
      t,
      kpt,
      [
        'fn',
        'eval',
        pkg,
        '--image',
        image,
        '--image-pull-policy',
        'never',
        '--',
        'kube-version=1.31',
        'lb-provider=aws-nlb-ip',
      ],
      { env, timeout: 240_000 },
    ),
    runCliAsync(['--kube-version', '1.31', '--lb-provider', 'aws-nlb-ip'], corpus(GATEWAY_CHART)),
    run(kpt, ['fn', 'eval', '-', '--image', bare, '--image-pull-policy', 'never', '-o', 'unwrap'], {
      input: corpus(GATEWAY_CHART),
      env,
      timeout: 240_000,
    }),
  ]);
  const runs = podman.calls().filter((c) => c[0] === 'run');
  const call = runs.find((c) => c.at(-1) === image);
  t.truthy(call, JSON.stringify(podman.calls()));
  t.deepEqual(call!.slice(0, 3), ['run', '--rm', '-i']);
  t.is(optionValue(call!, '--network'), 'none');
  t.is(optionValue(call!, '--user'), 'nobody');

  const after = readFileSync(join(pkg, 'gateway.yaml'), 'utf8');
  t.true(
    after.startsWith('# Source: gateway/templates/serviceaccount.yaml\n') &&
      after.includes('\n# Source: gateway/templates/deployment.yaml\n'),
    'comments kept',
  );
  // kpt drops the empty `annotations: {}` the chart renders once its own are removed: compare the
  // specs.
  t.deepEqual(
    doc(t, splitDocs(after), 'Deployment', GATEWAY).object.spec,
    doc(t, splitDocs(direct.stdout), 'Deployment', GATEWAY).object.spec,
    'container = kube-graceful on the host',
  );
  assertGatewayPatched(
    t,
    doc(t, splitDocs(after), 'Deployment', GATEWAY).object,
    'kpt fn eval --image',
  );
  t.is(readFileSync(join(pkg, 'Kptfile'), 'utf8'), KPTFILE);

  // A name without a registry is not the local image: kpt prefixes its own catalog, and never pulls
  // it.
  t.not(rewritten.status, 0);
  t.true(
    podman.calls().some((c) => c.includes(`gcr.io/kpt-fn/${bare}`)),
    JSON.stringify(podman.calls()),
  );
});

test(`kpt fn render with an image pipeline: the Kptfile configMap reaches the container; a bad config fails with kpt's error result and the package unchanged`, async (t) => {
  const image = await builtImage();
  const { podman, env } = podmanEnv('render-image');
  const pipeline = (settings: string) =>
    `${KPTFILE}pipeline:\n  mutators:\n    - image: ${image}\n      configMap:\n${settings}`;
  const good = gatewayPackage(
    'render-image',
    pipeline(
      '        kube-version: "1.31"\n        lb-provider: aws-nlb-ip\n        buffer: "7"\n',
    ),
  );
  const bad = gatewayPackage('render-bad', pipeline('        lb-provider: nope\n'));
  const pristine = files(bad);
  const results = join(tempDir('kpt-render-results'), 'results');
  const [, failed, direct] = await Promise.all([
    runOk(t, kpt, ['fn', 'render', good, '--image-pull-policy', 'never'], {
      env,
      timeout: 240_000,
    }),
    run(kpt, ['fn', 'render', bad, '--image-pull-policy', 'never', '--results-dir', results], {
      env,
      timeout: 240_000,
    }),
    runCliAsync(
      ['--kube-version', '1.31', '--lb-provider', 'aws-nlb-ip', '--buffer', '7'],
      corpus(GATEWAY_CHART),
    ),
  ]);
  t.true(
    podman
      .calls()
      .filter((c) => c[0] === 'run' && c.at(-1) === image)
      .every(
        (c) => optionValue(c, '--network') === 'none' && optionValue(c, '--user') === 'nobody',
      ),
  );
  const patched = doc(
    t,
    splitDocs(readFileSync(join(good, 'gateway.yaml'), 'utf8')),
    'Deployment',
    GATEWAY,
  ).object;
  assertGatewayPatched(t, patched, 'kpt fn render, image pipeline');
  t.deepEqual(
    patched.spec,
    doc(t, splitDocs(direct.stdout), 'Deployment', GATEWAY).object.spec,
    'buffer "7" from the configMap reached the container',
  );

  t.not(failed.status, 0);
  t.deepEqual(files(bad), pristine, 'package untouched');
  t.regex(
    failed.stderr,
    /lb-provider: got \\"nope\\"; expected one of aws-nlb-ip/,
    'kpt shows our stderr (quoted): the key the Kptfile names, the value, what is allowed',
  );
  const list = parse(readFileSync(join(results, 'results.yaml'), 'utf8')) as {
    items: Array<{ image?: string; exitCode: number; stderr?: string }>;
  };
  t.is(list.items.length, 1, JSON.stringify(list));
  t.is(list.items[0]?.image, image);
  t.is(list.items[0]?.exitCode, 2, 'exit 2: bad config');
  t.regex(
    list.items[0]?.stderr ?? '',
    /E_CONFIG: functionConfig: lb-provider: got "nope"; expected one of /,
  );
});

test('an error finding: kpt exits non-zero, writes our error result, and leaves the package unchanged', async (t) => {
  const pkg = packageCopy('error');
  writeFileSync(
    join(pkg, 'gateway.yaml'),
    withErrorFinding(readFileSync(join(pkg, 'gateway.yaml'), 'utf8')),
  );
  const before = files(pkg);
  const results = join(tempDir('kpt-results'), 'results');
  const [inPlace, stdin] = await Promise.all([
    run(kpt, ['fn', 'eval', pkg, '--exec', cliPath(), '--results-dir', results]),
    run(kpt, ['fn', 'eval', '-', '--exec', cliPath(), '-o', 'unwrap'], {
      input: withErrorFinding(rendered),
    }),
  ]);
  t.not(inPlace.status, 0);
  t.deepEqual(files(pkg), before, 'package untouched');
  t.regex(inPlace.stderr, /error: BAD_ANNOTATION Deployment demo-gateway/, 'kpt shows our stderr');
  const list = parse(readFileSync(join(results, 'results.yaml'), 'utf8')) as {
    items: Array<{
      exitCode: number;
      results: Array<{
        severity: string;
        tags?: Record<string, string>;
        resourceRef?: { name: string };
      }>;
    }>;
  };
  t.is(list.items[0]?.exitCode, 1);
  const errors = list.items[0]?.results.filter((r) => r.severity === 'error') ?? [];
  t.is(errors.length, 1, JSON.stringify(list.items[0]?.results));
  t.is(errors[0]?.tags?.['code'], 'BAD_ANNOTATION');
  t.is(errors[0]?.resourceRef?.name, 'demo-gateway');
  t.not(stdin.status, 0);
  t.is(stdin.stdout, '', 'kpt prints nothing on stdout for a failed function');
});
