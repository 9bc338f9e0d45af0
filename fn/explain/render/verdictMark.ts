/**
 * The mark of each verdict outcome, the same in every output (issue #26): ✓ no request fails, ✗
 * failure windows, ! risks, ? unknown (the timeline rests on something kube-graceful does not
 * model).
 */
import type { Timeline } from '../../explanation/timeline.ts';

type Outcome = Timeline['verdict']['outcome'];

const MARKS: Readonly<Record<Outcome, string>> = { ok: '✓', fail: '✗', risk: '!', unknown: '?' };

/** Returns the plain-text mark of a verdict outcome. */
export function verdictMark(outcome: Outcome): string {
  return MARKS[outcome];
}

/**
 * Returns a verdict in a few words for one-line summaries: the counted windows (`✗ 2 failure
 * windows, 1 risk`), `✓ no request fails`, or `? unknown` (the reasons are in the full text).
 */
export function shortVerdict(verdict: Timeline['verdict']): string {
  return verdict.outcome === 'unknown'
    ? `${MARKS.unknown} unknown`
    : `${MARKS[verdict.outcome]} ${verdict.text}`;
}
