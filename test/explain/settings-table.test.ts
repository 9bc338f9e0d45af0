/**
 * The Settings table agrees with the fields the run set, and stays readable on a terminal
 * (issue #17): a long existing preStop is shortened, and rows wrap at the terminal's width.
 */
import test from 'ava';
import { explain } from '../../fn/explain/explain.ts';
import { renderText } from '../../fn/explain/render/text.ts';
import { transform } from '../../fn/engine/transform.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

test('egress DaemonSet: MINIMUM_DRAIN_DURATION made explicit at its default shows an arrow, as Fields set lists it', (t) => {
  const explanation = explain(
    transform(corpus('istio-egressgateway-1.24.6-daemonset.yaml'), { flags: {} }),
  );
  const [workload] = explanation.workloads;
  const row = workload!.settings.find((s) => s.name === 'MINIMUM_DRAIN_DURATION')!;
  t.is(row.asWritten.value, row.patched.value, 'the value stays 5 s');
  t.true(row.changed);
  t.true(workload!.changes.some((c) => c.field.includes('env[name=MINIMUM_DRAIN_DURATION]')));
  t.regex(renderText(explanation), /MINIMUM_DRAIN_DURATION +5 s {2}→ {2}5 s/);
});

test('every corpus chart: a workload has a changed setting row exactly when it has fields set', (t) => {
  for (const name of corpusNames()) {
    for (const workload of explain(transform(corpus(name), { flags: {} })).workloads) {
      if (!workload.settings.length) continue;
      const rowsChanged = workload.settings.some((s) => s.changed);
      t.is(
        rowsChanged,
        workload.changes.length > 0,
        `${name} ${workload.resource.kind}/${workload.resource.name}`,
      );
    }
  }
});

const LONG_SCRIPT =
  '"echo draining; curl -s -X POST http://127.0.0.1:8080/admin/drain?graceful=true; ' +
  'while [ -f /tmp/busy ]; do sleep 1; done; sleep 15"';
const LONG_PRESTOP = `
        lifecycle:
          preStop:
            exec:
              command: ["/bin/sh", "-c", ${LONG_SCRIPT}]`;

test('a long existing preStop is shortened in the table, and rows wrap at the terminal width', (t) => {
  const input = corpus('istio-sample-httpbin-httpbin.yaml').replace(
    '\n        name: httpbin\n',
    `\n        name: httpbin${LONG_PRESTOP}\n`,
  );
  t.true(input.includes('admin/drain'), 'the fixture holds the long preStop');
  const explanation = explain(transform(input, { flags: {} }));
  const plain = renderText(explanation);
  const section = plain.slice(plain.indexOf('  Settings'), plain.indexOf('  As written'));
  const settings = section
    .split('\n')
    .filter((line) => line.includes('preStop') && line.includes('exec'));
  t.true(settings.length > 0, plain);
  for (const line of settings) t.true(line.includes('…'), line);
  for (const width of [110, 140]) {
    for (const text of [
      renderText(explanation, { width }),
      stripAnsi(renderText(explanation, { width, colour: true })),
    ]) {
      const tableLines = text.split('\n').filter((line) => line.startsWith('    '));
      const tooWide = tableLines.filter(
        (line) => [...line].length > width && line.trimEnd().includes(' '),
      );
      t.deepEqual(
        tooWide.filter((line) => !/\S{30,}/.test(line)),
        [],
        `width ${width}`,
      );
    }
  }
  t.is(
    stripAnsi(renderText(explanation, { colour: true })),
    plain,
    'colour adds styles, never text',
  );
});
