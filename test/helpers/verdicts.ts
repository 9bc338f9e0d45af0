/**
 * The verdicts `kube-graceful explain --format json` gives one mutator's workload, as written and
 * patched: what the wired tests hold explain to.
 */
import { runCliAsync } from './cli.ts';

/** What these tests read of explain's JSON (docs/explain-schema.md). */
interface ExplainedWorkload {
  readonly mutator: string;
  readonly timelines: Record<string, { verdict: { outcome: string } } | undefined>;
}

/** Returns the outcome of each timeline (`none` when absent) of the first workload of `mutator`. */
export async function verdictsOf(
  mutator: string,
  input: string,
  args: readonly string[] = [],
): Promise<{ asWritten: string; patched: string }> {
  const out = await runCliAsync(['explain', '--format', 'json', ...args], input);
  const { workloads } = JSON.parse(out.stdout) as { workloads: ExplainedWorkload[] };
  const workload = workloads.find((w) => w.mutator === mutator);
  return {
    asWritten: workload?.timelines['asWritten']?.verdict.outcome ?? 'none',
    patched: workload?.timelines['patched']?.verdict.outcome ?? 'none',
  };
}
