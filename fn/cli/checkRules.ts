/**
 * What a rule of `check` is, for its machine-readable outputs (SARIF's `rules`, JUnit's test
 * names): a finding code, or a mutator's pending changes. Each rule points at the page that
 * documents it: the mutator's page (docs/mutators/<id>.md, whose Findings table lists its codes;
 * test/mutators/registry.test.ts checks it does) or docs/findings.md for the engine's own codes.
 * There is no published site: the path is the repository's, made absolute with `--docs-url`.
 */
import { findingCodeOwners } from '../engine/findingCodes.ts';
import { MUTATORS } from '../mutators/registry.ts';

/** One rule: its id, what it is about, and the repository path of its documentation. */
export interface CheckRule {
  readonly id: string;
  /** One line: SARIF's shortDescription. */
  readonly title: string;
  readonly description: string;
  /** The doc page, from the repository root, with an anchor when the page has a section for it. */
  readonly doc: string;
}

const descriptionOf = (id: string) => MUTATORS.find((m) => m.id === id)?.description;

/** Returns the rule of a mutator's pending changes: its id is the mutator's. */
export function changeRule(mutator: string): CheckRule {
  return {
    id: mutator,
    title: `${mutator}: the manifest is not what kube-graceful writes`,
    description:
      `${mutator} would change this object (${descriptionOf(mutator) ?? 'a mutator'}): the input ` +
      'is not what kube-graceful writes. Run kube-graceful over it (as the post-renderer, KRM ' +
      'function or CLI) or make the change in the source.',
    doc: `docs/mutators/${mutator}.md`,
  };
}

/** Returns the rule of a finding code, with the mutators that can emit it. */
export function findingRule(code: string): CheckRule {
  const owners = findingCodeOwners().get(code) ?? [];
  const mutators = owners.filter((owner) => owner !== 'engine');
  if (mutators.length === 0)
    return {
      id: code,
      title: `${code} (kube-graceful engine)`,
      description: `${code}: a finding of kube-graceful's engine (annotations, edits it refuses).`,
      doc: `docs/findings.md#${code.toLowerCase()}`,
    };
  return {
    id: code,
    title: `${code} (${mutators.join(', ')})`,
    description:
      `${code}: a finding of ${mutators.join(', ')} (` +
      `${mutators.map((id) => descriptionOf(id)).join('; ')}). ` +
      `Its Findings table says what it means and what to do.`,
    doc: `docs/mutators/${mutators[0]}.md#findings`,
  };
}
