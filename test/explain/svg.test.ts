/**
 * `explain -o svg` and `-o html` (issue #17): the picture holds the model's numbers and
 * the timelines' windows (read from its data- attributes, the same Explanation the text and JSON
 * show), it renders in the real headless Chromium (Debian's package) without errors to a
 * non-blank image of the expected size, and the README's example picture is current.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { PNG } from 'pngjs';
import { explain } from '../../fn/explain/explain.ts';
import type { Explanation } from '../../fn/explain/explain.ts';
import { renderHtml } from '../../fn/explain/render/html.ts';
import { renderSvg } from '../../fn/explain/render/svg.ts';
import { transform } from '../../fn/engine/transform.ts';
import { corpus, corpusNames, ROOT } from '../helpers/fixtures.ts';
import { chromium } from '../helpers/chromium.ts';
import { runInProcess } from './run.ts';
import { EXAMPLE_ARGS, EXAMPLE_PICTURE } from '../../scripts/example-picture.mjs';

const INJECTED = {
  'istio-injected-namespaces':
    'monitoring,argocd,istio-system,ingress-nginx,kube-system,argo,default',
};

function attributes(svg: string, element: string): Array<Record<string, string>> {
  return [...svg.matchAll(new RegExp(`<g class="${element}"([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/data-([a-z]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

/** Splits the SVG into its panels, in order: as written, patched, per workload. */
function panels(svg: string): string[] {
  return svg.split('<g class="panel"').slice(1);
}

function explained(name: string, flags: Record<string, string> = INJECTED): Explanation {
  return explain(transform(corpus(name), { flags }));
}

test('every corpus chart: the picture carries the model numbers and every window of both timelines', (t) => {
  let workloads = 0;
  for (const name of corpusNames()) {
    const explanation = explained(name);
    const svg = renderSvg(explanation);
    const panelTexts = panels(svg);
    t.is(panelTexts.length, explanation.workloads.length * 2, name);
    explanation.workloads.forEach((workload, index) => {
      workloads += 1;
      const [asWritten, patched] = [panelTexts[index * 2]!, panelTexts[index * 2 + 1]!];
      const marks = attributes(patched, 'model-number');
      for (const derived of workload.derived) {
        t.true(
          marks.some(
            (m) =>
              m['symbols']!.split(' ').includes(derived.symbol) &&
              Number(m['seconds']) === derived.seconds,
          ),
          `${name}: ${derived.symbol} = ${derived.seconds}`,
        );
      }
      const w = workload.inputs.find((i) => i.symbol === 'W');
      if (w)
        for (const panel of [asWritten, patched])
          t.true(
            attributes(panel, 'model-number').some(
              (m) => m['symbols']!.split(' ').includes('W') && Number(m['seconds']) === w.value,
            ),
            `${name}: W`,
          );
      for (const [panel, timeline] of [
        [asWritten, workload.timelines.asWritten],
        [patched, workload.timelines.patched],
      ] as const) {
        const bands = attributes(panel, 'band')
          .map((b) => `${b['outcome']} ${b['kind']} ${b['from']}–${b['to']}`)
          .sort();
        t.deepEqual(
          bands,
          timeline.windows.map((w) => `${w.outcome} ${w.kind} ${w.from}–${w.to ?? ''}`).sort(),
          `${name}: windows`,
        );
        t.is(attributes(panel, 'event-mark').length, timeline.events.length, `${name}: events`);
        t.true(
          panel.startsWith(
            ` data-state="${timeline === workload.timelines.patched ? 'patched' : 'as-written'}` +
              `" data-outcome="${timeline.verdict.outcome}"` +
              ` data-failures="${timeline.verdict.failures}"`,
          ),
          name,
        );
      }
    });
  }
  t.true(workloads > 20, `${workloads} workloads drawn`);
});

test('an unknown outcome is drawn as ?, with the unknown events and the verdict marked', (t) => {
  // The gateway chart's Service is a plain type: LoadBalancer: W is a guess (issue #26).
  const explanation = explained('istio-gateway-1.30.3-default.yaml', {});
  const svg = renderSvg(explanation);
  const [asWritten, patched] = panels(svg);
  for (const panel of [asWritten!, patched!]) {
    t.true(panel.startsWith(' data-state="'), 'a panel');
    t.regex(panel, /^[^>]*data-outcome="unknown"[^>]*data-unknowns="1">/);
    t.regex(panel, /<tspan class="unknown">\? unknown: which load balancer is in front/);
    t.true(
      attributes(panel, 'event-mark').some(
        (e) => e['unknown'] === 'true' && e['actor'] === 'traffic',
      ),
      'the W event is marked unknown',
    );
  }
});

test('R and B are drawn as spans when the grace period is S + R + B', (t) => {
  const explanation = explain(
    transform(corpus('istio-gateway-1.30.3-nlb.yaml'), {
      flags: { 'max-request': '10', buffer: '10' },
    }),
  );
  const marks = attributes(renderSvg(explanation), 'model-number');
  t.true(marks.some((m) => m['symbols'] === 'R' && m['seconds'] === '10'));
  t.true(marks.some((m) => m['symbols'] === 'B' && m['seconds'] === '10'));
  t.true(marks.some((m) => m['symbols']!.split(' ').includes('G') && m['seconds'] === '200'));
});

test('self-contained: no link, script or external reference; light and dark styles', (t) => {
  const explanation = explained('istio-sample-kube-bookinfo.yaml');
  for (const page of [renderSvg(explanation), renderHtml(explanation)]) {
    t.false(
      // Links within the page (the verdict table's rows and back) fetch nothing.
      /<script|href="(?!#)|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(page),
      'nothing fetched',
    );
    t.regex(page, /prefers-color-scheme: dark/);
  }
});

for (const format of ['svg', 'html'] as const) {
  test(`headless Chromium renders the ${format} without errors to a non-blank image of the expected size`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'kg-picture-'));
    const file = join(dir, `explain.${format}`);
    const out = await runInProcess([
      'explain',
      '--output',
      format,
      join(ROOT, 'examples/quickstart/istio-gateway-nlb.yaml'),
    ]);
    t.is(out.exitCode, 0);
    writeFileSync(file, out.stdout);
    const dom = chromium(['--dump-dom', `file://${file}`]);
    t.is(dom.status, 0, dom.stderr);
    t.false(/parsererror|error on line/i.test(dom.stdout), dom.stdout.slice(0, 500));
    t.regex(dom.stdout, /W = S = M = 180 s/);
    const height =
      format === 'svg' ? Math.ceil(Number(/height="([\d.]+)"/.exec(out.stdout)![1])) : 900;
    const png = join(dir, 'shot.png');
    const shot = chromium([`--screenshot=${png}`, `--window-size=960,${height}`, `file://${file}`]);
    t.is(shot.status, 0, shot.stderr);
    const image = PNG.sync.read(readFileSync(png));
    t.deepEqual([image.width, image.height], [960, height]);
    const colours = new Set<number>();
    for (let i = 0; i < image.data.length; i += 4 * 97) colours.add(image.data.readUInt32BE(i));
    t.true(colours.size > 8, `${colours.size} colours: the picture is not blank`);
  });
}

test('the README shows the example picture, and it is what the script writes now', async (t) => {
  t.regex(
    readFileSync(join(ROOT, 'README.md'), 'utf8'),
    new RegExp(`!\\[[^\\]]+\\]\\(${EXAMPLE_PICTURE as string}\\)`),
  );
  const now = await runInProcess(
    EXAMPLE_ARGS.map((a) => (a.endsWith('.yaml') ? join(ROOT, a) : a)),
  );
  const committed = readFileSync(join(ROOT, EXAMPLE_PICTURE), 'utf8');
  t.is(
    committed,
    now.stdout,
    'run `npm run picture` and commit docs/images/quickstart-timeline.svg',
  );
});
