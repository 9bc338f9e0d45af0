/**
 * What a run that lets go of each document after its turn (streamPipeline.ts, listPipeline.ts)
 * keeps of it for the report: its final text, parsed again only if explain reads it.
 */
import { ManifestDocument } from '../document/manifest.ts';
import { Resource } from '../workloads/resource.ts';
import { Workload } from '../workloads/workload.ts';
import type { RunOutcome } from './pipeline.ts';

/**
 * Points the outcomes made on `doc` (from `first` on) at a copy of it that holds only its final
 * text, parsed again only if explain reads it: an outcome's Workload otherwise keeps the
 * document's yaml tree and data alive until the run ends.
 */
export function settleOutcomes(outcomes: RunOutcome[], first: number, doc: ManifestDocument): void {
  if (first === outcomes.length) return;
  const settled = new ManifestDocument(doc.text, doc.place);
  for (let i = first; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    if (outcome.subject === 'object') {
      outcomes[i] = { ...outcome, resource: new Resource(settled, outcome.resource.base) };
      continue;
    }
    const { resource, templatePath, ref } = outcome.workload;
    outcomes[i] = {
      ...outcome,
      workload: new Workload(new Resource(settled, resource.base), templatePath, ref),
    };
  }
}
