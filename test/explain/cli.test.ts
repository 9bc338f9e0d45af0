/**
 * `kube-graceful explain` as users run it (the bundled CLI: `npm run build` first): the same
 * output as the goldens, JSON valid against docs/explain.schema.json, colour only on a TTY without
 * NO_COLOR, stdin and files, and the setting flags shared with the transform.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { colourWanted } from '../../fn/cli/explainCommand.ts';
import { explain } from '../../fn/explain/explain.ts';
import { renderText } from '../../fn/explain/render/text.ts';
import { transform } from '../../fn/engine/transform.ts';
import { runCli } from '../helpers/cli.ts';
import { cliPath, corpus, ROOT } from '../helpers/fixtures.ts';
import { HANG_GUARD_MS } from '../helpers/hangGuard.ts';
import { requireTool } from '../helpers/tools.ts';
import { explainCases } from './run.ts';

const require = createRequire(import.meta.url);
const ESC = '\u001b[';
const gateway = explainCases().find((c) => c.name === 'gateway-istio-1.17.8-nlb')!;

test('the bundled CLI prints the golden text', (t) => {
  const run = runCli(['explain', gateway.file, ...gateway.args], '');
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, readFileSync(join(gateway.dir, 'explain.txt'), 'utf8'));
  t.false(run.stdout.includes(ESC), 'no colour when stdout is not a terminal');
});

test('stdin: no file or - reads the stream', (t) => {
  const input = corpus('istio-gateway-1.17.8-nlb.yaml');
  const none = runCli(['explain', ...gateway.args], input);
  const dash = runCli(['explain', '-', ...gateway.args], input);
  t.is(none.status, 0, none.stderr);
  t.is(none.stdout, dash.stdout);
  t.regex(none.stdout, /Deployment istio-system\/istio-public-ingressgateway {2}<stdin>:79/);
});

test('JSON output is valid against the documented schema, for every golden case', (t) => {
  const Ajv = require('ajv') as new (options: object) => {
    compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown };
  };
  const validate = new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(join(ROOT, 'docs', 'explain.schema.json'), 'utf8')),
  );
  for (const goldenCase of explainCases()) {
    const json = JSON.parse(readFileSync(join(goldenCase.dir, 'explain.json'), 'utf8'));
    t.true(validate(json), `${goldenCase.name}: ${JSON.stringify(validate.errors)}`);
    t.is(json.schema, 'kube-graceful.dev/explain/v1');
  }
  const run = runCli(['explain', gateway.file, '--output', 'json', ...gateway.args], '');
  t.true(validate(JSON.parse(run.stdout)), JSON.stringify(validate.errors));
});

test('colour: only on a terminal, never with NO_COLOR set', (t) => {
  t.true(colourWanted({ isTTY: true }, {}));
  t.false(colourWanted({ isTTY: false }, {}));
  t.false(colourWanted({}, {}));
  t.false(colourWanted({ isTTY: true }, { NO_COLOR: '1' }));
  t.true(
    colourWanted({ isTTY: true }, { NO_COLOR: '' }),
    'an empty NO_COLOR does not count (no-color.org)',
  );
  const explanation = explain(
    transform(corpus('istio-gateway-1.17.8-nlb.yaml'), {
      flags: { 'max-request': '10', buffer: '10' },
    }),
  );
  const coloured = renderText(explanation, { colour: true });
  t.true(coloured.includes(ESC));
  t.is(
    coloured.replace(/\u001b\[[0-9;]*m/g, ''),
    renderText(explanation),
    'colour adds styles, never text',
  );
});

test('colour on a real terminal, and NO_COLOR turns it off', (t) => {
  const script = requireTool('script');
  const args = gateway.args.join(' ');
  const command = `${process.execPath} ${cliPath()} explain ${gateway.file} ${args}`;
  const tty = spawnSync(script, ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '' },
    timeout: HANG_GUARD_MS,
  });
  t.is(tty.status, 0, tty.stderr);
  t.true(tty.stdout.includes(`${ESC}31m`), 'failure windows in red');
  const plain = spawnSync(script, ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    timeout: HANG_GUARD_MS,
  });
  t.is(plain.status, 0);
  t.false(plain.stdout.includes(ESC));
});

test('markdown output for PR comments', (t) => {
  const run = runCli(['explain', gateway.file, '-o', 'markdown', ...gateway.args], '');
  t.is(run.status, 0);
  t.is(run.stdout, readFileSync(join(gateway.dir, 'explain.md'), 'utf8'));
});

test('explain reads a ResourceList too, and names the item files kpt gives', (t) => {
  const list = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    namespace: shop
    annotations:
      internal.config.kubernetes.io/path: deployment.yaml
  spec:
    template:
      spec:
        containers:
        - name: web
          image: nginx
          ports: [{containerPort: 8080}]
`;
  const run = runCli(['explain', '-o', 'json'], list);
  t.is(run.status, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  t.deepEqual(json.workloads[0].location, { file: 'deployment.yaml' });
  t.is(json.workloads[0].mutator, 'app-graceful');
});

test('a ResourceList cannot be joined with other files (exit 2)', (t) => {
  const run = runCli(
    ['explain', gateway.file, '-'],
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n',
  );
  t.is(run.status, 2);
  t.regex(run.stderr, /ResourceList, which cannot be joined/);
});

test('help lists the subcommands; explain and check take the same setting flags as the transform', (t) => {
  const help = runCli(['--help'], '');
  t.regex(help.stdout, /explain \[options\] \[files\.\.\.\]/);
  t.regex(help.stdout, /check \[options\] \[files\.\.\.\]/);
  for (const sub of ['explain', 'check']) {
    const subHelp = runCli([sub, '--help'], '');
    t.is(subHelp.status, 0);
    for (const flag of [
      '--config',
      '--max-request',
      '--drain-window',
      '--lb-provider',
      '--istio-injected-namespaces',
    ])
      t.true(subHelp.stdout.includes(flag), `${sub} ${flag}`);
  }
});

test('the transform still reads its flags after the shared-flags refactor', (t) => {
  const run = runCli(
    ['--max-request', '10', '--buffer', '10'],
    corpus('istio-gateway-1.17.8-nlb.yaml'),
  );
  t.is(run.status, 0, run.stderr);
  t.regex(run.stdout, /terminationGracePeriodSeconds: 200/);
  t.is(runCli(['--no-such-flag'], '').status, 2);
});
