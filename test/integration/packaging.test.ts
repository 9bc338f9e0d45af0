/**
 * What ships: the Helm 4 plugin folder exactly as Helm 4 accepts it, the npm package contents, and
 * the container image, built by podman from this tree (localhost/kube-graceful:dev on the Node 20
 * base made from Debian packages) and run as kustomize and kpt run it.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { builtFiles } from '../helpers/fixtures.ts';
import { cliPath, ROOT, run, runOk } from '../helpers/integration.ts';
import { builtImage, imageConfig, podmanPath } from '../helpers/container.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

test('renderer/plugin.yaml is the minimal Helm 4 post-renderer plugin (unknown keys make Helm skip it)', (t) => {
  const plugin = parse(readFileSync(join(ROOT, 'renderer', 'plugin.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  t.deepEqual(plugin, {
    apiVersion: 'v1',
    type: 'postrenderer/v1',
    name: 'kube-graceful',
    version: pkg.version,
    runtime: 'subprocess',
    runtimeConfig: {
      platformCommand: [{ command: 'node', args: ['${HELM_PLUGIN_DIR}/dist/cli.js'] }],
    },
  });
});

test('the build puts the same launcher, bundle and code cache in dist/ and in the plugin folder', (t) => {
  const files = builtFiles();
  t.deepEqual(
    readdirSync(join(ROOT, 'renderer', 'dist')).sort(),
    files,
    'renderer/dist/ = dist/ (run npm run build)',
  );
  for (const file of files)
    t.true(
      readFileSync(join(ROOT, 'renderer', 'dist', file)).equals(
        readFileSync(join(ROOT, 'dist', file)),
      ),
      file,
    );
  t.true(
    files.some((f) => f.endsWith('.cjs')) &&
      files.some((f) => f.endsWith('.v8cache')) &&
      files.includes('package.json'),
    files.join(' '),
  );
  t.true((statSync(cliPath()).mode & 0o111) !== 0, 'dist/cli.js is executable');
  t.is(pkg.bin['kube-graceful'], 'dist/cli.js');
});

test('the npm package holds the CLI, the plugin folder with its bundle, and no tests', async (t) => {
  const out = await runOk(
    t,
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'],
    { cwd: ROOT },
  );
  const files = (
    (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files ?? []
  ).map((f) => f.path);
  const built = builtFiles().flatMap((f) => [`dist/${f}`, `renderer/dist/${f}`]);
  for (const file of [
    ...built,
    'renderer/plugin.yaml',
    'renderer/README.md',
    'README.md',
    'package.json',
  ])
    t.true(files.includes(file), file);
  t.false(
    files.some((f) => f.startsWith('test/') || f.startsWith('.cache/')),
    files.filter((f) => f.startsWith('test/')).join(', '),
  );
});

test('Dockerfile: by default distroless Node.js 20 (no shell), a non-root user, the bundled KRM function as entrypoint', (t) => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  t.regex(text, /^ARG BASE=gcr\.io\/distroless\/nodejs20-debian\d+:nonroot$/m);
  const runtime = /^FROM \$\{BASE\} AS runtime$([\s\S]*?)^FROM /m.exec(text)?.[1] ?? '';
  t.regex(runtime, /^USER 65532:65532$/m);
  t.regex(
    runtime,
    /^ENTRYPOINT \["\/nodejs\/bin\/node", "\/app\/cli\.js"\]$/m,
    'exec form: no shell starts it',
  );
  // The default target (the last stage): the runtime with the bundle built in the image build, from
  // a clean clone.
  t.regex(
    text.slice(text.lastIndexOf('\nFROM ')),
    /^FROM runtime\nCOPY --from=build \/src\/dist\/ \/app\/\n$/m,
  );
});

/** `podman run` of the image as kustomize and kpt start it: no network, user nobody. */
function podmanRun(
  image: string,
  args: readonly string[],
  input: string,
  extra: readonly string[] = [],
) {
  return run(
    podmanPath(),
    [
      'run',
      '--rm',
      '-i',
      '--network',
      'none',
      '--user',
      'nobody',
      '--security-opt=no-new-privileges',
      ...extra,
      image,
      ...args,
    ],
    { input, timeout: 240_000 },
  );
}

test('the image of this tree: non-root, dist/ as built, a code cache V8 takes, and a KRM function run as nobody without network, shell or writable files', async (t) => {
  const image = await builtImage();
  const config = imageConfig(image);
  t.is(config.User, '65532:65532');
  t.deepEqual(config.Entrypoint, ['/nodejs/bin/node', '/app/cli.js']);
  t.falsy(config.Cmd, 'no arguments: kustomize and kpt pass none');

  const list = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items: []', ''].join(
    '\n',
  );
  // Every shell of the base made unrunnable (/dev/null over dash and bash): nothing needs one.
  // A read-only root file system: nothing is written at run time.
  const noShell = [
    '--read-only',
    '-v',
    '/dev/null:/usr/bin/dash:ro',
    '-v',
    '/dev/null:/usr/bin/bash:ro',
  ];
  const [files, cache, krm, shell] = await Promise.all([
    run(
      podmanPath(),
      [
        'run',
        '--rm',
        '--network',
        'none',
        '--entrypoint',
        '/nodejs/bin/node',
        image,
        '-e',
        "console.log(require('fs').readdirSync('/app').sort().join(' '))",
      ],
      { timeout: 240_000 },
    ),
    podmanRun(image, ['--version'], '', ['-e', 'KUBE_GRACEFUL_CODE_CACHE=check']),
    podmanRun(image, [], list, noShell),
    podmanRun(image, [], '', [...noShell, '--entrypoint', '/bin/sh']),
  ]);
  t.is(files.stdout.trim(), builtFiles().join(' '), `/app = dist/ of this tree\n${files.stderr}`);
  t.is(cache.stdout.trim(), pkg.version, cache.stderr);
  t.regex(
    cache.stderr,
    /code cache used/,
    'the V8 code cache inside the image is taken by its Node',
  );
  t.is(krm.status, 0, krm.stderr);
  t.is(krm.stdout, list, 'an empty ResourceList comes back as it was');
  t.not(shell.status, 0, 'the shell really is gone in that run');
});

test('Dockerfile: everything the build stage copies exists and is not excluded by .dockerignore', (t) => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  // The build stage's files come from the repository; the `prebuilt` target's dist/ from a context
  // holding only dist/ (scripts/image/build.sh).
  const buildStage = /^FROM \S+ AS build$([\s\S]*?)^FROM /m.exec(text)?.[1] ?? '';
  const sources = [...buildStage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
    m[1]!.split(/\s+/),
  );
  t.true(sources.length >= 4, sources.join(' '));
  for (const source of sources) {
    t.true(existsSync(join(ROOT, source)), `${source} exists`);
    t.false(dockerIgnores(patterns, source), `${source} is not excluded by .dockerignore`);
  }
  // The build's training run reads these (scripts/build.mjs): the image build needs them too.
  const training = [
    .../TRAINING = \[([^\]]*)\]/
      .exec(readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8'))![1]!
      .matchAll(/'([^']+)'/g),
  ].map((m) => m[1]!);
  t.true(training.length >= 1);
  for (const file of training)
    t.true(sources.includes(file), `the Dockerfile copies the training stream ${file}`);
});

/**
 * Whether Docker leaves `source` out of the context: the last pattern naming it or a folder of it
 * decides (`!` puts back).
 */
function dockerIgnores(patterns: readonly string[], source: string): boolean {
  const path = source.replace(/\/$/, '');
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const target = pattern.replace(/^!/, '').replace(/\/$/, '');
    if (path === target || path.startsWith(`${target}/`)) ignored = !negated;
  }
  return ignored;
}
