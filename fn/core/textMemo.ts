/**
 * Results of a pure function of a short text, kept by that text (issue #16: on a stream of many
 * workloads the same small texts are read again and again, e.g. every meshed Deployment's
 * `proxy.istio.io/config` annotation was parsed four times for the same two edits).
 */
import { ownCopy } from './sharedStrings.ts';

/** A bounded table from a text to what a pure function made of it. */
export class TextMemo<V> {
  readonly #table = new Map<string, V>();

  /**
   * @param max how many texts to keep before the table starts over, so that a process running
   *   many transforms (tests, a server) does not keep every text it ever saw.
   * @param maxLength texts longer than this are not kept (their result is made each time).
   */
  constructor(
    private readonly max: number,
    private readonly maxLength: number,
  ) {}

  /**
   * Returns what `make` gives for `text`, made on the first call and kept. `make` must be a pure
   * function of `text`, and what it returns must be neither changed by anyone nor hold a view of
   * a larger text (it is kept for later calls: see SharedStrings on sliced strings). The key is
   * kept as a string of its own.
   */
  get(text: string, make: (text: string) => V): V {
    if (text.length > this.maxLength) return make(text);
    if (this.#table.has(text)) return this.#table.get(text) as V;
    const value = make(text);
    if (this.#table.size >= this.max) this.#table.clear();
    this.#table.set(ownCopy(text), value);
    return value;
  }
}
