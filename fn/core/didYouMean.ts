/**
 * "Did you mean …" for a word that names nothing (a command, a config key, an annotation): the
 * known name fewest single-character edits away, as git and kubectl suggest. Two edits catch a
 * dropped, doubled or swapped letter (`chek`, `maxRequestSecond`) without offering `patches` for
 * `batch`.
 */

/** The most edits a word may be from a name that is suggested for it. */
const MAX_SUGGESTION_DISTANCE = 2;

/**
 * Returns the number of insertions, deletions, substitutions and swaps of neighbours that turn
 * `a` into `b` (optimal string alignment distance).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Returns the known name closest to `word` (case aside) when it is at most
 * MAX_SUGGESTION_DISTANCE edits away and closer than half the word, else undefined. Ties go to
 * the name listed first.
 */
export function closest(word: string, names: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance < (best?.distance ?? Infinity)) best = { name, distance };
  }
  if (!best || best.distance > MAX_SUGGESTION_DISTANCE) return undefined;
  // `ab` is two edits from every two-letter name: a guess, not a suggestion.
  return best.distance * 2 < Math.max(word.length, 1) ? best.name : undefined;
}

/** Returns ` (did you mean NAME?)`, or '' when nothing is close. */
export function didYouMean(word: string, names: Iterable<string>): string {
  const name = closest(word, names);
  return name === undefined ? '' : ` (did you mean ${name}?)`;
}
