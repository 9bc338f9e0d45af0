/**
 * The explain picture shows every word whole (issue #29 item 7): in the real headless Chromium,
 * no text of any picture passes the picture's edges, on every corpus chart and golden case; the
 * lanes fit the workload (no windows lane where there are no windows; a Job's is its "outcome"),
 * and an event that never happens is an arrow past the end of the axis, not a dot on it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { explain } from '../../fn/explain/explain.ts';
import { renderSvg } from '../../fn/explain/render/svg.ts';
import { transform } from '../../fn/engine/transform.ts';
import { chromium } from '../helpers/chromium.ts';
import { corpus, corpusNames } from '../helpers/fixtures.ts';
import { goldenCases, runCase } from '../helpers/golden.ts';

const INJECTED = {
  'istio-injected-namespaces':
    'monitoring,argocd,istio-system,ingress-nginx,kube-system,argo,default',
};

/** Measures every text of every picture on the page; writes the ones past an edge to the DOM. */
const MEASURE = `
const out = [];
document.querySelectorAll('svg').forEach((svg) => {
  const box = svg.getBoundingClientRect();
  svg.querySelectorAll('text').forEach((text) => {
    const r = text.getBoundingClientRect();
    if (r.width === 0) return;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
        r.bottom > box.bottom + 0.5)
      out.push(svg.dataset.name + ': ' + text.textContent + ' [' + Math.round(r.left - box.left) +
        '..' + Math.round(r.right - box.left) + ' of ' + Math.round(box.width) + ']');
  });
});
const pre = document.createElement('pre');
pre.id = 'result';
pre.textContent = JSON.stringify({ pictures: document.querySelectorAll('svg').length, out });
document.body.appendChild(pre);
`;

test('no text of any picture passes its edges, in Chromium, on every corpus chart and golden case', (t) => {
  const pictures = [
    ...corpusNames().map((name) => ({
      name,
      svg: renderSvg(explain(transform(corpus(name), { flags: INJECTED }))),
    })),
    ...goldenCases().map((c) => ({ name: c.name, svg: renderSvg(explain(runCase(c))) })),
  ];
  const page = [
    '<!doctype html><html><head><meta charset="utf-8"></head><body>',
    ...pictures.map(({ name, svg }) =>
      svg.replace('<svg ', `<svg data-name="${name.replace(/[^\w.-]/g, '_')}" `),
    ),
    `<script>${MEASURE}</script></body></html>`,
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'kg-svg-fit-')), 'pictures.html');
  writeFileSync(file, page);
  const dom = chromium(['--dump-dom', `file://${file}`]);
  t.is(dom.status, 0, dom.stderr);
  const result = /<pre id="result">([^<]*)<\/pre>/.exec(dom.stdout)?.[1];
  t.truthy(result, 'the measuring script ran');
  const { pictures: drawn, out } = JSON.parse(result!.replaceAll('&quot;', '"')) as {
    pictures: number;
    out: string[];
  };
  t.is(drawn, pictures.length);
  t.deepEqual(out.slice(0, 10), []);
});

test('lanes fit the workload: a Job has an outcome lane and draws "never" as an arrow past the axis', (t) => {
  const svg = renderSvg(
    explain(
      transform(corpus('ingress-nginx.yaml'), {
        flags: { 'istio-injected-namespaces': 'ingress-nginx' },
      }),
    ),
  );
  const jobPanels = svg
    .split('<g class="workload"')
    .filter((w) => w.includes('data-mutator="job-sidecar-quit"'));
  t.true(jobPanels.length > 0);
  for (const job of jobPanels) {
    t.false(job.includes('>requests</text>'), 'a Job has no requests lane');
    t.true(job.includes('>outcome</text>'));
    const never = [...job.matchAll(/<g class="event-mark" data-at="never"[^>]*>.*?<\/g>/g)];
    t.true(never.length > 0, 'the sidecar that never stops');
    for (const [mark] of never) {
      t.regex(mark, /<path class="never" d="M(\d+(\.\d+)?),/);
      // The arrow starts at the end of the axis; the dot sits past it.
      const start = Number(/d="M([\d.]+),/.exec(mark)![1]);
      const cx = Number(/cx="([\d.]+)"/.exec(mark)![1]);
      t.true(cx > start, `${cx} past the axis end ${start}`);
    }
  }
});
