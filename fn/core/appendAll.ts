/**
 * Appends every item of `items` to `target`, one at a time. `target.push(...items)` passes each
 * item as an argument, and V8 takes only so many (about 120,000 on Node 20's default stack): a
 * `kind: List` of 150,000 Services, and `--diff` on a part of 300,000 kept lines, made the run
 * exit 70 with "Maximum call stack size exceeded".
 * For arrays whose length the input decides.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
