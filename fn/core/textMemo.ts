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
   * Returns what `make` (a pure function of `text`, giving plain data) gives for `text`, made on
   * the first call and kept. What is kept, and returned, is a copy (structuredClone: it holds no
   * view of a larger text, see SharedStrings on sliced strings), frozen all through, since every
   * later caller gets the same one. The key is kept as a string of its own.
   */
  get(text: string, make: (text: string) => V): V {
    if (text.length > this.maxLength) return make(text);
    if (this.#table.has(text)) return this.#table.get(text) as V;
    const value = deepFreeze(structuredClone(make(text)));
    if (this.#table.size >= this.max) this.#table.clear();
    this.#table.set(ownCopy(text), value);
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
