/**
 * Issue #26: a ✓ must come only from facts the tool models. Over every corpus chart, every gateway
 * fixture, every render-injected pod and every explain golden case, `explain -o json` must show:
 * (a) a ✓ or ✗ only where no event or window of that timeline rests on something not modelled;
 * (b) never a patched ✓ beside a settings row whose patched value misses the plan (✗);
 * (c) an unknown outcome that names what is not known and how to tell the tool.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import type { Explanation } from '../../fn/explain/explain.ts';
import { fixturePath, ROOT } from '../helpers/fixtures.ts';
import { explainCases, runInProcess } from './run.ts';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? yamlFiles(join(dir, d.name))
      : /\.(ya?ml|injected)$/.test(d.name)
        ? [join(dir, d.name)]
        : [],
  );
}

const INPUTS: ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> = [
  ...[
    ...yamlFiles(fixturePath('corpus')),
    ...yamlFiles(fixturePath('gateways')),
    ...yamlFiles(fixturePath('render-injected')),
  ].map((file) => ({ name: relative(ROOT, file), args: [relative(ROOT, file)] })),
  ...explainCases().map((c) => ({ name: `golden ${c.name}`, args: [c.file, ...c.args] })),
];

for (const input of INPUTS) {
  test(`verdicts from modelled facts only: ${input.name}`, async (t) => {
    const run = await runInProcess(['explain', '--output', 'json', ...input.args]);
    if (run.exitCode !== 0) {
      t.pass(`not explained (exit ${run.exitCode})`);
      return;
    }
    const explanation = JSON.parse(run.stdout) as Explanation;
    t.pass(`${explanation.workloads.length} explained`);
    for (const w of explanation.workloads) {
      const who = `${w.resource.kind} ${w.resource.name}`;
      for (const [state, timeline] of Object.entries(w.timelines)) {
        const { verdict } = timeline;
        const unknownParts = [...timeline.events, ...timeline.windows].filter((x) => x.unknown);
        // (a) the verdict is unknown exactly when something drawn is not modelled.
        t.is(
          verdict.outcome === 'unknown',
          unknownParts.length > 0,
          `${who} ${state}: outcome ${verdict.outcome} with ${unknownParts.length} unknown parts`,
        );
        if (verdict.outcome === 'ok')
          t.true(
            timeline.events.every((e) => e.unknown === undefined),
            `${who} ${state}: ✓ with an event not modelled`,
          );
        // (c) an unknown names what and how to tell.
        for (const u of verdict.unknowns) {
          t.true(u.what.length > 0 && u.tell.length > 0, `${who} ${state}: empty unknown`);
          t.true(verdict.text.includes(u.what) && verdict.text.includes(u.tell), who);
        }
        if (verdict.outcome === 'unknown') t.true(verdict.unknowns.length > 0, who);
      }
      // (b) never a ✓ beside a ✗ row.
      if (w.timelines.patched.verdict.outcome === 'ok')
        t.deepEqual(
          w.settings.filter((s) => s.planned?.met === false).map((s) => s.name),
          [],
          `${who}: patched ✓ beside settings rows that miss the plan`,
        );
    }
  });
}
