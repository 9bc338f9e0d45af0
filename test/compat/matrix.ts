/**
 * The compatibility matrix (issue #13): corpus gateways, apps and Jobs, run in this process across
 * Istio, Kubernetes (oldest kubelet) and Linkerd versions and each mode; every pod kube-graceful
 * wrote must pass every check of the compatibility table, and explain's patched timeline must agree
 * with the settings in the written manifest (./timeline.ts).
 */
import { parseAllDocuments } from 'yaml';
import { COMPATIBILITY as CONSTRAINTS } from '../../fn/mutators/compatibility.ts';
import type { CheckedPod } from '../../fn/compat/pod.ts';
import { getAt } from '../../fn/core/fieldPath.ts';
import { transform } from '../../fn/engine/transform.ts';
import { explain } from '../../fn/explain/explain.ts';
import type { KubeObject, PodTemplate } from '../../fn/core/kubeObject.ts';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../helpers/fixtures.ts';
import { timelineDisagreements } from './timeline.ts';

const range = (major: number, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${major}.${from + i}`);
export const ISTIO_VERSIONS = range(1, 12, 30);
export const KUBERNETES_VERSIONS = range(1, 27, 35);
export const LINKERD_VERSIONS = range(2, 14, 20);

/**
 * One input of the matrix: a corpus file, the mesh it is in, and the mode axis that applies to it.
 */
export interface MatrixInput {
  readonly name: string;
  /**
   * Under test/fixtures: `corpus/…` (real renders) or `render-injected/…` (upstream inject
   * goldens).
   */
  readonly file: string;
  readonly mesh: 'istio' | 'linkerd';
  readonly role: 'gateway' | 'app' | 'job';
  readonly flags: Readonly<Record<string, string>>;
  /**
   * The mesh never injects here whatever the flags say (Istio's IgnoredNamespaces): nothing may be
   * checked, i.e. written.
   */
  readonly neverInjected?: true;
}

/** The mode flag and its values for each role. */
export const MODES = {
  gateway: {
    flag: 'gateway-mode',
    values: ['env', 'sleep', 'off'],
    others: { 'app-mode': 'off', 'job-mode': 'off' },
  },
  app: {
    flag: 'sidecar-mode',
    values: ['auto', 'native', 'classic'],
    others: { 'gateway-mode': 'off', 'job-mode': 'off' },
  },
  job: {
    flag: 'job-mode',
    values: ['auto', 'native', 'wrap', 'off'],
    others: { 'gateway-mode': 'off', 'app-mode': 'off' },
  },
} as const;

/** One breach found: the case, the constraint (or `timeline`), and why. */
export interface Violation {
  readonly constraint: string;
  readonly input: string;
  readonly flags: string;
  readonly workload: string;
  readonly message: string;
}

/**
 * Both sides of every version boundary a constraint or a mutator knows
 * (fn/mutators/compatibility.ts):
 * Istio 1.12 exit-on-zero, 1.17 parentShutdownDuration, 1.21 quitquitquit in Jobs, 1.24 native
 * annotation, 1.26 quit without drain, 1.27 auto native; Kubernetes 1.29 native sidecars, 1.30
 * sleep action, 1.33 sleep 0 and Istio's auto native. Linkerd's seven minors are all boundaries
 * or next to one (2.15 native, 2.16 shutdown off, 2.19 beta and 2.20 GA prefixes).
 */
export const ISTIO_BOUNDARIES = [
  '1.12',
  '1.16',
  '1.17',
  '1.20',
  '1.21',
  '1.23',
  '1.24',
  '1.25',
  '1.26',
  '1.27',
  '1.30',
];
export const KUBERNETES_BOUNDARIES = ['1.27', '1.28', '1.29', '1.30', '1.32', '1.33', '1.35'];

/**
 * Returns the versions to run for one input (the other mesh stays at its default, which does not
 * reach these pods): every pair of boundary versions of the input's mesh and Kubernetes, and every
 * version of each axis with the other at its default (Istio 1.26 / Linkerd 2.18, Kubernetes 1.31).
 * The full product (19 × 9 × 3 modes per Istio input) takes minutes on a shared 2-core machine;
 * this covers each boundary from both sides in every pairing with a third of the cases.
 */
export function versionsFor(input: MatrixInput): Array<Record<string, string>> {
  const [flag, all, boundaries, usual] =
    input.mesh === 'istio'
      ? (['istio-version', ISTIO_VERSIONS, ISTIO_BOUNDARIES, '1.26'] as const)
      : (['linkerd-version', LINKERD_VERSIONS, LINKERD_VERSIONS, '2.18'] as const);
  const pairs = [
    ...boundaries.flatMap((m) => KUBERNETES_BOUNDARIES.map((k) => [m, k])),
    ...all.map((m) => [m, '1.31']),
    ...KUBERNETES_VERSIONS.map((k) => [usual, k]),
  ];
  const unique = [
    ...new Map(pairs.map(([m, k]) => [`${m} ${k}`, { [flag]: m!, 'kube-version': k! }])).values(),
  ];
  return unique;
}

const parsedInputs = new Map<string, Map<number, KubeObject | null>>();

/**
 * Returns the breaches of one case, and how many workloads it checked (so a case cannot pass by
 * checking nothing).
 */
export function runCase(
  input: MatrixInput,
  flags: Record<string, string>,
): { violations: Violation[]; checked: number } {
  const all = { ...input.flags, ...flags };
  const result = transform(readFileSync(fixturePath(input.file), 'utf8'), { flags: all });
  const before = parsedInputs.get(input.file) ?? objects(result.input);
  parsedInputs.set(input.file, before);
  const after = objects(result.output);
  const namespaces = new Map(
    [...before.values()]
      .filter((o): o is KubeObject => o?.kind === 'Namespace')
      .map((o) => [o.metadata?.name, o.metadata?.labels ?? {}]),
  );
  const violations: Violation[] = [];
  const flagText = Object.entries(flags)
    .map(([k, v]) => `--${k} ${v}`)
    .join(' ');
  const explained = explain(result);
  let checked = 0;
  for (const outcome of result.outcomes) {
    // The pod checks read pod templates; an object mutator's target has none.
    if (outcome.subject !== 'workload') continue;
    const document = outcome.workload.resource.doc.place.document;
    const path = [...outcome.workload.resource.base, ...outcome.workload.templatePath];
    const templateBefore = getAt(before.get(document), path) as PodTemplate | undefined;
    const templateAfter = getAt(after.get(document), path) as PodTemplate | undefined;
    if (!templateBefore || !templateAfter) continue;
    const ref = outcome.workload.ref;
    const workload = `${ref.kind} ${ref.namespace ?? ''}/${ref.name}`;
    const pod: CheckedPod = {
      role:
        outcome.mutator === 'gateway-drain'
          ? 'gateway'
          : outcome.mutator === 'job-sidecar-quit'
            ? 'job'
            : 'app',
      namespace: ref.namespace,
      namespaceLabels: namespaces.get(ref.namespace) ?? {},
      before: templateBefore,
      after: templateAfter,
      spec: result.config.spec,
    };
    checked++;
    for (const constraint of CONSTRAINTS) {
      const message = constraint.check?.(pod);
      if (message)
        violations.push({
          constraint: constraint.id,
          input: input.name,
          flags: flagText,
          workload,
          message,
        });
    }
    const explanation = explained.workloads.find(
      (w) => w.document === document && w.mutator === outcome.mutator,
    );
    if (explanation) {
      for (const d of timelineDisagreements(explanation, pod))
        violations.push({
          constraint: `timeline: ${d.rule}`,
          input: input.name,
          flags: flagText,
          workload,
          message: d.message,
        });
    }
  }
  return { violations, checked };
}

/**
 * The objects of a stream by document number (1-based), read with plain yaml as Kubernetes reads
 * them.
 */
function objects(text: string): Map<number, KubeObject | null> {
  const map = new Map<number, KubeObject | null>();
  parseAllDocuments(text, { version: '1.1' }).forEach((doc, i) =>
    map.set(i + 1, doc.toJS() as KubeObject | null),
  );
  return map;
}

/** Returns the violations grouped by constraint: count and a few examples each, for the report. */
export function summarize(
  violations: readonly Violation[],
  examples = 3,
): Record<string, { cases: number; examples: string[] }> {
  const out: Record<string, { cases: number; examples: string[] }> = {};
  for (const v of violations) {
    const entry = (out[v.constraint] ??= { cases: 0, examples: [] });
    entry.cases++;
    if (entry.examples.length < examples)
      entry.examples.push(`${v.input} ${v.flags}: ${v.workload}: ${v.message}`);
  }
  return out;
}
