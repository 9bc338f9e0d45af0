/**
 * The config's JSON Schema and field reference (issue #28 item 7) are generated from the schema
 * that validates it: both files are current, the JSON Schema accepts every config document the
 * project ships and tests with (goldens, examples) and rejects what kube-graceful rejects (an
 * unknown field, a value outside an enum, an unquoted version), and the npm package ships it.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { configJsonSchema, configReferenceMarkdown } from '../../fn/config/reference.ts';
import { ROOT } from '../helpers/fixtures.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

test('docs/config.schema.json and docs/configuration.md are what npm run docs:config writes', (t) => {
  t.is(read('docs/config.schema.json'), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  t.is(read('docs/configuration.md'), configReferenceMarkdown());
});

const validate = new Ajv({ strict: false, allErrors: true }).compile(
  JSON.parse(read('docs/config.schema.json')) as object,
);

/** Every GracefulShutdown document in the goldens' configs and the examples. */
function shippedConfigs(): Array<{ file: string; document: unknown }> {
  const files = [
    ...readdirSync(join(ROOT, 'test', 'golden'))
      // An error case's config may be one kube-graceful refuses (a typo): tested below.
      .filter((dir) => !existsSync(join(ROOT, 'test', 'golden', dir, 'expected.err')))
      .map((dir) => join('test', 'golden', dir, 'config.yaml'))
      .filter((file) => existsSync(join(ROOT, file))),
    'examples/kustomize-exec/graceful.yaml',
    'examples/kustomize-container/graceful.yaml',
  ];
  return files.flatMap((file) =>
    read(file)
      .split(/^---$/m)
      .map((text) => parse(text, { version: '1.1' }) as { kind?: string } | null)
      .filter((document) => document?.kind === 'GracefulShutdown')
      .map((document) => ({ file, document })),
  );
}

test('the JSON Schema accepts every config the project ships and tests with', (t) => {
  const configs = shippedConfigs();
  t.true(configs.length > 50, `${configs.length} configs`);
  for (const { file, document } of configs)
    t.true(validate(document), `${file}: ${JSON.stringify(validate.errors)}`);
});

test('the JSON Schema rejects what kube-graceful rejects', (t) => {
  const base = { apiVersion: 'kube-graceful.dev/v1alpha1', kind: 'GracefulShutdown' };
  t.true(validate({ ...base, spec: { timing: { maxRequestSeconds: 10 } } }));
  t.false(validate({ ...base, spec: { timming: {} } }), 'a typo in a field name');
  t.false(validate({ ...base, spec: { gateway: { mode: 'drain' } } }), 'a value outside the enum');
  t.false(validate({ ...base, spec: { kubernetesVersion: 1.31 } }), 'a version as a number');
  t.false(validate({ ...base, spec: { timing: { bufferSeconds: -1 } } }), 'a negative duration');
  t.false(validate({ ...base, kind: 'Other' }), 'another kind');
  // The error golden's config, which the run refuses with E_CONFIG (test/golden.test.ts).
  const typo = parse(read('test/golden/error-config-unknown-key/config.yaml'), { version: '1.1' });
  t.false(validate(typo), 'the config typo of the error golden');
});

test('the reference names every flat setting once, and the package ships the schema', (t) => {
  const reference = read('docs/configuration.md');
  const pkg = JSON.parse(read('package.json')) as { files: string[] };
  t.true(pkg.files.includes('docs/config.schema.json'));
  for (const name of ['kube-version', 'lb-provider', 'max-request', 'contour-mode', 'kong-mode'])
    t.is(reference.split(`| \`${name}\` |`).length, 2, name);
});
