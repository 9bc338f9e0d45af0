/**
 * The pre-scan's answer for a ResourceList item that is a flow mapping (`- {"apiVersion": …}`, as
 * kpt keeps a package's JSON files; issue #34 item 1): its top-level `kind` read from the text, so
 * items no mutator reads pass through as bytes, as block items do (./prescan.ts).
 *
 * As the block pre-scan, it names a kind only when it is sure, and says "don't know" otherwise
 * (the item is then parsed). It is sure when, read by the YAML 1.2 flow rules (§7.4, §7.3.3):
 *  - the text is one flow mapping: `{`, its entries, the `}` that closes it, and then nothing but
 *    blanks and comments. Where its lines sit is the caller's to vouch for: the list's layout
 *    (fn/krm/layout.ts) takes an item only when every line of it after the first is indented
 *    beyond its `-`, as flow content in a block sequence must be (§7.1 s-flow-line-prefix);
 *  - no entry of the mapping starts with `?`, `!`, `&`, `*` or a reserved indicator (explicit
 *    keys, tags, anchors, aliases: the parser's to resolve);
 *  - exactly one top-level key is `kind` (plain, `"kind"` or `'kind'`), and its value is one word,
 *    plain or in matching quotes, followed only by blanks or comments up to the entry's end.
 * Depth is followed through quoted scalars only: a plain scalar in flow context cannot hold `{`,
 * `}`, `[`, `]` or `,` (ns-plain-safe-in), and a quote inside one (`don't`) is not a quote.
 */

const KIND_WORD = /^[A-Za-z0-9]+$/;
const WHITESPACE_RUN = /[ \t\r\n]+/y;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const HASH = 0x23;
const DOUBLE = 0x22;
const SINGLE = 0x27;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;

/** Characters that may not start a plain scalar (§7.3.3) or that the pre-scan leaves to the
 * parser: explicit key, tag, anchor, alias, block scalars, directives, reserved. */
const UNSURE_AT_START = new Set(['?', '!', '&', '*', '|', '>', '%', '@', '`', '#']);

/**
 * Returns the item's top-level kind when the text is a flow mapping the rules above read for
 * certain, else undefined.
 */
export function prescanFlowKind(text: string): string | undefined {
  const scan = new FlowScan(text);
  scan.skipBlanks();
  if (text.charCodeAt(scan.at) !== OPEN_BRACE) return undefined;
  return scan.mapping();
}

/** A cursor over one flow mapping's text. */
class FlowScan {
  at = 0;
  private kind: string | undefined;
  private kinds = 0;

  constructor(private readonly text: string) {}

  /** Reads the root mapping from its `{`; returns its kind when everything was sure. */
  mapping(): string | undefined {
    this.at++; // the root's `{`
    for (;;) {
      if (!this.skipBlanks()) return undefined;
      const c = this.text.charCodeAt(this.at);
      if (c === CLOSE_BRACE) {
        this.at++;
        break;
      }
      // One entry: its key, maybe `: value`, then `,` or the closing `}`.
      const key = this.key();
      if (key === false) return undefined;
      if (!this.skipBlanks()) return undefined;
      if (this.text.charCodeAt(this.at) === COLON) {
        this.at++;
        if (key === 'kind') {
          if (!this.kindValue()) return undefined;
        } else if (!this.node()) return undefined;
      }
      if (!this.skipBlanks()) return undefined;
      const after = this.text.charCodeAt(this.at);
      if (after === COMMA) this.at++;
      else if (after !== CLOSE_BRACE) return undefined;
    }
    // Nothing after the mapping but blanks and comments.
    if (!this.skipBlanks(true)) return undefined;
    return this.kinds === 1 ? this.kind : undefined;
  }

  /**
   * Reads a top-level key: its text (unquoted), or false when unsure. Leaves the cursor on the `:`
   * (or on what ends a key without value).
   */
  private key(): string | false {
    const c = this.text.charCodeAt(this.at);
    if (c === DOUBLE || c === SINGLE) {
      const start = this.at;
      if (!this.quoted()) return false;
      const inner = this.text.slice(start + 1, this.at - 1);
      // Read as written: a `kind` spelled with escapes is then not taken for one, and the item,
      // with no kind named, is parsed.
      return inner;
    }
    if (this.unsureAtStart()) return false;
    const start = this.at;
    if (!this.plain()) return false;
    return this.text.slice(start, this.at).trimEnd();
  }

  /** Reads the value of `kind`: one word, plain or quoted. */
  private kindValue(): boolean {
    if (!this.skipBlanks()) return false;
    const c = this.text.charCodeAt(this.at);
    let word: string;
    if (c === DOUBLE || c === SINGLE) {
      const start = this.at;
      if (!this.quoted()) return false;
      word = this.text.slice(start + 1, this.at - 1);
    } else {
      if (this.unsureAtStart()) return false;
      const start = this.at;
      if (!this.plain()) return false;
      word = this.text.slice(start, this.at).trimEnd();
    }
    if (!KIND_WORD.test(word)) return false;
    this.kind = word;
    this.kinds++;
    return true;
  }

  /** Skips one node of any shape (a nested collection, a quoted or plain scalar, or nothing). */
  private node(): boolean {
    if (!this.skipBlanks()) return false;
    const c = this.text.charCodeAt(this.at);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return this.collection();
    if (c === DOUBLE || c === SINGLE) return this.quoted();
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET) return true; // an empty value
    if (this.unsureAtStart()) return false;
    return this.plain();
  }

  /** Skips a nested flow collection, from its opening bracket to the one that closes it. */
  private collection(): boolean {
    const close = this.text.charCodeAt(this.at) === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    this.at++;
    for (;;) {
      if (!this.skipBlanks()) return false;
      const c = this.text.charCodeAt(this.at);
      if (c === close) {
        this.at++;
        return true;
      }
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) return false;
      if (c === COMMA) {
        this.at++;
        continue;
      }
      // An entry: a node, and maybe `: node` (a pair in a mapping, or a single pair in a list);
      // then `,` or the closing bracket.
      if (!this.node()) return false;
      if (!this.skipBlanks()) return false;
      if (this.text.charCodeAt(this.at) === COLON) {
        this.at++;
        if (!this.node() || !this.skipBlanks()) return false;
      }
      const after = this.text.charCodeAt(this.at);
      if (after !== COMMA && after !== close) return false;
    }
  }

  /** Skips a quoted scalar from its opening quote to after its closing one. */
  private quoted(): boolean {
    const quote = this.text.charCodeAt(this.at);
    const text = this.text;
    let i = this.at + 1;
    for (;;) {
      const end = text.indexOf(quote === DOUBLE ? '"' : "'", i);
      if (end === -1) return false;
      if (quote === DOUBLE) {
        // The quote is escaped when an odd number of backslashes precede it.
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) slashes++;
        if (slashes % 2 === 1) {
          i = end + 1;
          continue;
        }
      } else if (text.charCodeAt(end + 1) === SINGLE) {
        i = end + 2; // '' is a quote inside
        continue;
      }
      this.at = end + 1;
      return true;
    }
  }

  /**
   * Skips a plain scalar: up to a flow indicator, `: ` (or `:` before one), or ` #`. A line break
   * inside it folds (the next line must be indented).
   */
  private plain(): boolean {
    const text = this.text;
    let i = this.at;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === OPEN_BRACE || c === CLOSE_BRACE) break;
      if (c === OPEN_BRACKET || c === CLOSE_BRACKET) break;
      if (c === COLON) {
        const next = text.charCodeAt(i + 1);
        if (Number.isNaN(next) || isBlank(next) || isFlowIndicator(next)) break;
      } else if (c === HASH && isBlank(text.charCodeAt(i - 1))) break;
    }
    if (i === this.at) return false;
    this.at = i;
    return true;
  }

  /**
   * Skips spaces, tabs, line breaks and comments; true when something is left, or with `toEnd`,
   * true only when nothing is.
   */
  skipBlanks(toEnd = false): boolean {
    const text = this.text;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === SPACE || c === TAB || c === CR || c === LF) {
        // A run at once: indented JSON is mostly indentation.
        WHITESPACE_RUN.lastIndex = this.at;
        WHITESPACE_RUN.test(text);
        this.at = WHITESPACE_RUN.lastIndex;
      } else if (c === HASH && (this.at === 0 || isBlank(text.charCodeAt(this.at - 1)))) {
        const end = text.indexOf('\n', this.at);
        this.at = end === -1 ? text.length : end;
      } else return !toEnd;
    }
    return toEnd;
  }

  /** True when the entry starting here begins with an indicator left to the parser. */
  private unsureAtStart(): boolean {
    return UNSURE_AT_START.has(this.text[this.at] ?? '');
  }
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || Number.isNaN(c);
}

function isFlowIndicator(c: number): boolean {
  return (
    c === COMMA ||
    c === OPEN_BRACE ||
    c === CLOSE_BRACE ||
    c === OPEN_BRACKET ||
    c === CLOSE_BRACKET
  );
}
