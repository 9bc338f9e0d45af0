/**
 * Every examples/<path>/run.sh passes here (each exits non-zero when the output did not change as
 * expected), and the rendered manifests the kustomize/kpt examples start from match the demo chart.
 */
import test from 'ava';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CHART, HANG_GUARD_MS, ROOT, run, runOk } from '../helpers/integration.ts';
import { helm3Path, helm4Path, helmEnv, requireTool } from '../helpers/tools.ts';
import { tempDir } from '../helpers/integration.ts';

const examples = join(ROOT, 'examples');
const scripts = readdirSync(examples)
  .filter((dir) => existsSync(join(examples, dir, 'run.sh')))
  .sort();
const env = { ...process.env, HELM3: helm3Path(), HELM4: helm4Path() };
for (const tool of ['kubectl', 'kpt']) requireTool(tool);

test('one example folder per path', (t) => {
  t.deepEqual(scripts, [
    'argocd',
    'helm3',
    'helm4',
    'kpt-eval',
    'kpt-render',
    'kustomize-container',
    'kustomize-exec',
  ]);
});

for (const name of scripts) {
  test(`examples/${name}/run.sh passes`, async (t) => {
    const result = await run('bash', [join(examples, name, 'run.sh')], {
      env,
      timeout: HANG_GUARD_MS,
    });
    t.is(
      result.status,
      0,
      `examples/${name}/run.sh exited ${result.status}\n${result.stderr.slice(-3000)}`,
    );
    t.regex(result.stderr, /\nOK: /);
  });
}

test('examples/manifests/graceful-demo.yaml is `helm template demo` of the demo chart', async (t) => {
  const rendered = await runOk(t, helm3Path(), ['template', 'demo', DEMO_CHART], {
    env: helmEnv(tempDir('examples-helm')),
  });
  t.is(
    readFileSync(join(examples, 'manifests', 'graceful-demo.yaml'), 'utf8'),
    rendered,
    'regenerate it: npm run golden:update:examples (helm template demo ' +
      'test/fixtures/charts/graceful-demo with the pinned Helm 3)',
  );
});
