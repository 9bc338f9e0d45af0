/**
 * What ships: the Helm 4 plugin folder exactly as Helm 4 accepts it, the npm package contents, and
 * the Dockerfile (no Docker engine here: its entrypoint is checked against the build output and
 * run locally; the image itself is built by users or a release pipeline).
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cliPath, ROOT, run, runOk } from '../helpers/integration.ts';
import { dockerfileEntrypoint } from '../helpers/standinDocker.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

test('renderer/plugin.yaml is the minimal Helm 4 post-renderer plugin (unknown keys make Helm skip it)', (t) => {
  const plugin = parse(readFileSync(join(ROOT, 'renderer', 'plugin.yaml'), 'utf8')) as Record<string, unknown>;
  t.deepEqual(plugin, {
    apiVersion: 'v1',
    type: 'postrenderer/v1',
    name: 'kube-graceful',
    version: pkg.version,
    runtime: 'subprocess',
    runtimeConfig: { platformCommand: [{ command: 'node', args: ['${HELM_PLUGIN_DIR}/dist/cli.js'] }] },
  });
});

test('the build puts the same launcher, bundle and code cache in dist/ and in the plugin folder', (t) => {
  const files = readdirSync(join(ROOT, 'dist')).sort();
  t.deepEqual(readdirSync(join(ROOT, 'renderer', 'dist')).sort(), files, 'renderer/dist/ = dist/ (run npm run build)');
  for (const file of files) t.true(readFileSync(join(ROOT, 'renderer', 'dist', file)).equals(readFileSync(join(ROOT, 'dist', file))), file);
  t.true(files.some((f) => f.endsWith('.cjs')) && files.some((f) => f.endsWith('.v8cache')) && files.includes('package.json'), files.join(' '));
  t.true((statSync(cliPath()).mode & 0o111) !== 0, 'dist/cli.js is executable');
  t.is(pkg.bin['kube-graceful'], 'dist/cli.js');
});

test('the npm package holds the CLI, the plugin folder with its bundle, and no tests', async (t) => {
  const out = await runOk(t, 'npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], { cwd: ROOT });
  const files = ((JSON.parse(out) as { files: { path: string }[] }[])[0]?.files ?? []).map((f) => f.path);
  const built = readdirSync(join(ROOT, 'dist')).flatMap((f) => [`dist/${f}`, `renderer/dist/${f}`]);
  for (const file of [...built, 'renderer/plugin.yaml', 'renderer/README.md', 'README.md', 'package.json']) t.true(files.includes(file), file);
  t.false(files.some((f) => f.startsWith('test/') || f.startsWith('.cache/')), files.filter((f) => f.startsWith('test/')).join(', '));
});

test('Dockerfile: distroless Node.js 20 (no shell), non-root, entrypoint = the bundled KRM function', async (t) => {
  const image = dockerfileEntrypoint();
  t.regex(image.base, /^gcr\.io\/distroless\/nodejs20-debian\d+:nonroot$/);
  t.truthy(image.user);
  t.notRegex(image.user ?? '', /^(root|0)(:|$)/);
  t.deepEqual(image.entrypoint, ['/nodejs/bin/node', '/app/cli.js']);
  t.deepEqual(image.local, [process.execPath, cliPath()], 'the entrypoint file is dist/cli.js from the build stage');
  const version = await runOk(t, image.local[0]!, [...image.local.slice(1), '--version'], { env: { PATH: '/nonexistent' } });
  t.is(version.trim(), pkg.version, 'runs with an empty environment, as in the container');
  const list = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items: []', ''].join('\n');
  const krm = await run(image.local[0]!, image.local.slice(1), { input: list, env: {} });
  t.is(krm.status, 0, krm.stderr);
  t.is(krm.stdout, list, 'an empty ResourceList comes back as it was');
});

test('Dockerfile: everything the build stage copies exists and is not excluded by .dockerignore', (t) => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const sources = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
  t.true(sources.length >= 4, sources.join(' '));
  for (const source of sources) {
    t.true(existsSync(join(ROOT, source)), `${source} exists`);
    t.false(dockerIgnores(patterns, source), `${source} is not excluded by .dockerignore`);
  }
  // The build's training run reads these (scripts/build.mjs): the image build needs them too.
  const training = [.../TRAINING = \[([^\]]*)\]/.exec(readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8'))![1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  t.true(training.length >= 1);
  for (const file of training) t.true(sources.includes(file), `the Dockerfile copies the training stream ${file}`);
});

/** Whether Docker leaves `source` out of the context: the last pattern naming it or a folder of it decides (`!` puts back). */
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
