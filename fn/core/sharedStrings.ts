/**
 * Strings kept once each, as strings of their own (issue #16 item 5, peak memory). A string cut
 * out of a longer text (split(), slice(), a regular expression's match) is, in V8, a view of that
 * text (a sliced string, for 13 characters or more) that keeps the whole text alive: kept for the
 * run, it keeps the text it was cut from. A table of copies keeps one string per value instead.
 */

/** A bounded table of strings, one of its own per value. */
export class SharedStrings {
  readonly #table = new Map<string, string>();

  /**
   * @param max how many values to keep before the table starts over, so that a process running
   *   many transforms (tests, a server) does not keep every value it ever saw.
   */
  constructor(private readonly max: number) {}

  /** Returns the string kept for `text`'s value, made from it when new. */
  share(text: string): string {
    const known = this.#table.get(text);
    if (known !== undefined) return known;
    if (this.#table.size >= this.max) this.#table.clear();
    const own = ownCopy(text);
    this.#table.set(own, own);
    return own;
  }
}

/**
 * Returns a string of its own equal to `text`. Joining its characters makes a new string; no
 * encoding is involved, so lone surrogates stay as they are.
 */
export function ownCopy(text: string): string {
  return text.split('').join('');
}
