/**
 * Splits a multi-document YAML stream into segments whose concatenation is the input, byte for
 * byte. A line starting with `---` (followed by a space, a tab or the line end) or `...` at column 0
 * is always a document marker in YAML (it cannot occur inside a scalar: YAML 1.2 §9.1.4,
 * "c-forbidden"), so the split is exact without parsing.
 */

/** One document's source text, as it stands in the stream. */
export interface Segment {
  /** 0-based position among the segments of the stream. */
  readonly index: number;
  /** The text: from its `---` line (if any) up to the next marker. */
  readonly text: string;
  /** Offset of the text in the stream (after a byte-order mark). */
  readonly offset: number;
  /** 1-based line of the stream at which the text starts. */
  readonly line: number;
}

/** The stream cut into segments, with a byte-order mark kept aside. */
export interface SplitStream {
  readonly bom: string;
  readonly segments: Segment[];
}

const MARKER = /^(?:---(?=[ \t\r\n]|$)|\.\.\.(?=[ \t\r\n]|$))/;

/** Returns the segments of `stream`; joining `bom` and every `text` gives `stream` back. */
export function splitStream(stream: string): SplitStream {
  const bom = stream.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? stream.slice(1) : stream;
  const segments: Segment[] = [];
  let start = 0;
  let startLine = 1;
  let line = 1;
  let pos = 0;
  let seenContent = false;
  const push = (end: number) => {
    if (end > start) segments.push({ index: segments.length, text: body.slice(start, end), offset: start, line: startLine });
    start = end;
    startLine = line;
    seenContent = false;
  };
  while (pos < body.length) {
    const next = body.indexOf('\n', pos);
    const lineEnd = next === -1 ? body.length : next + 1;
    const marker = MARKER.exec(body.slice(pos, Math.min(pos + 4, lineEnd)))?.[0];
    if (marker === '---') {
      // A `---` starts a new document unless nothing but comments/blank lines precede it in this
      // segment (then the comments belong to the document that follows, like Helm's layout).
      if (seenContent) push(pos);
      seenContent = true;
    } else if (marker === '...') {
      line++;
      pos = lineEnd;
      push(pos);
      continue;
    } else if (!seenContent && !/^(?:[ \t]*(?:#.*)?|%.*)\r?\n?$/.test(body.slice(pos, lineEnd))) {
      // Comments, blank lines and directives (`%YAML 1.1`) belong to the document that follows.
      seenContent = true;
    }
    line++;
    pos = lineEnd;
  }
  push(body.length);
  return { bom, segments };
}
