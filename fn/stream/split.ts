/**
 * Splits a multi-document YAML stream into segments whose concatenation is the input, byte for
 * byte. A line starting with `---` (followed by a space, a tab or the line end) or `...` at
 * column 0 is always a document marker in YAML (it cannot occur inside a scalar: YAML 1.2 §9.1.4,
 * "c-forbidden"), so the split is exact without parsing.
 *
 * The scan looks at each line's first four characters only (no slice, no regex), except for the
 * few lines before a document's first content, which decide where comments belong: a 4.7 MB
 * stream is split in a few milliseconds (issue #9).
 */
import { keepYoungGenerationSmall } from './youngGeneration.ts';

/** One document's source text, as it stands in the stream. */
export interface Segment {
  /** 0-based position among the segments of the stream. */
  readonly index: number;
  /** The text: from its `---` line (if any) up to the next marker. Split from bytes, a latin1
   * view of them made anew at each read (see splitBytes). */
  readonly text: string;
  /** Offset of the text in the stream after a byte-order mark (in bytes when split from bytes). */
  readonly offset: number;
  /** The text's length (in bytes, when split from bytes). */
  readonly length: number;
  /** 1-based line of the stream at which the text starts. */
  readonly line: number;
}

/**
 * What the split reads: the stream's text (a string is one), or its UTF-8 bytes (bytesBody).
 * Markers, line breaks and the comment and directive lines it looks at are ASCII, and every byte
 * of a multi-byte UTF-8 character is 0x80 or more, so the bytes split where the text does, at the
 * byte offsets of the text's offsets.
 */
interface Body {
  readonly length: number;
  charCodeAt(pos: number): number;
  indexOf(search: string, from: number): number;
  /** The text from `start` to `end` (latin1 for bytes: only ever tested against ASCII). */
  slice(start: number, end: number): string;
}

/** The bytes of a stream read as a Body. */
function bytesBody(buffer: Buffer): Body {
  // Searched for as bytes: Buffer#indexOf given a string encodes it at every call, and on Node 20
  // its search is several times slower than for the same needle as bytes (a 4.7 MB stream's 102
  // `\n---` took 7 ms, as bytes 1.2 ms); a line feed as a number, the fastest for one byte (that
  // stream's 80,923 line feeds, one call each: 35 ms as a string, 16 as bytes, 11 as a number).
  const needles = new Map<string, Buffer>();
  const needle = (search: string) => {
    let bytes = needles.get(search);
    if (bytes === undefined) needles.set(search, (bytes = Buffer.from(search, 'latin1')));
    return bytes;
  };
  return {
    length: buffer.length,
    charCodeAt: (pos) => (pos < buffer.length ? buffer[pos]! : NaN),
    // A negative offset counts from the end in Buffer#indexOf, from 0 in String#indexOf.
    indexOf: (search, from) =>
      search.length === 1
        ? buffer.indexOf(search.charCodeAt(0), Math.max(0, from))
        : buffer.indexOf(needle(search), Math.max(0, from)),
    slice: (from, to) => buffer.toString('latin1', from, to),
  };
}

/**
 * A segment of a stream split from bytes: its text is a latin1 view of its bytes, made when read
 * and let go after (issue #16, peak memory: a view of the whole stream, alive for the whole run,
 * was as large as the input; the split, the pre-scan and the kind check each read a segment's
 * text once, and only documents that are parsed are decoded, from the bytes).
 */
class ByteSegment implements Segment {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
  readonly line: number;

  constructor(
    /** The stream's bytes after any byte-order mark (a view, not a copy). */
    private readonly body: Buffer,
    place: Omit<Segment, 'text'>,
  ) {
    this.index = place.index;
    this.offset = place.offset;
    this.length = place.length;
    this.line = place.line;
  }

  get text(): string {
    return this.body.toString('latin1', this.offset, this.offset + this.length);
  }
}

/** The stream cut into segments, with a byte-order mark kept aside. */
export interface SplitStream {
  readonly bom: string;
  readonly segments: Segment[];
}

/** A line that holds no YAML node: blank, a comment, or a directive (`%YAML 1.1`). */
const NO_CONTENT_LINE = /^(?:[ \t]*(?:#.*)?|%.*)\r?\n?$/;

const DASH = 0x2d;
const DOT = 0x2e;

/** Returns the segments of `stream`; joining `bom` and every `text` gives `stream` back. */
export function splitStream(stream: string): SplitStream {
  const bom = stream.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? stream.slice(1) : stream;
  const segments = splitBody(body, (index, offset, length, line) => ({
    index,
    text: body.slice(offset, offset + length),
    offset,
    length,
    line,
  }));
  return { bom, segments };
}

/**
 * Returns the segments of a stream's UTF-8 bytes from `start` (after a byte-order mark): offsets
 * (from `start`) and lengths in bytes, each text a latin1 view of its bytes, made when read
 * (ByteSegment).
 */
export function splitBytes(bytes: Buffer, start: number): Segment[] {
  const body = bytes.subarray(start);
  // Every segment outlives the split, which is what grows V8's young generation: the cap is
  // looked at as they are made, or the split alone grows it to 8 MiB (bookinfo ×400).
  return splitBody(bytesBody(body), (index, offset, length, line) => {
    keepYoungGenerationSmall(length);
    return new ByteSegment(body, { index, offset, length, line });
  });
}

/** Returns the segments of `body`, each made by `segment` from where it sits. */
function splitBody(
  body: Body,
  segment: (index: number, offset: number, length: number, line: number) => Segment,
): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  let startLine = 1;
  let line = 1;
  let pos = 0;
  let seenContent = false;
  const nextMarkerLine = markerLineFinder(body);
  const push = (end: number) => {
    if (end > start) segments.push(segment(segments.length, start, end - start, startLine));
    start = end;
    startLine = line;
    seenContent = false;
  };
  while (pos < body.length) {
    if (seenContent) {
      // Inside a document only `---` and `...` lines matter: jump to the next line that starts
      // with either, counting the line breaks on the way (a 4.7 MB stream has 80,000 lines).
      const jump = nextMarkerLine(pos);
      while (pos < jump) {
        const next = body.indexOf('\n', pos);
        if (next === -1 || next >= jump) break;
        line++;
        pos = next + 1;
      }
      pos = jump;
      if (pos >= body.length) break;
    }
    const next = body.indexOf('\n', pos);
    const lineEnd = next === -1 ? body.length : next + 1;
    const marker = markerAt(body, pos);
    if (marker === DASH) {
      // A `---` starts a new document unless nothing but comments/blank lines precede it in this
      // segment (then the comments belong to the document that follows, like Helm's layout).
      if (seenContent) push(pos);
      seenContent = true;
    } else if (marker === DOT) {
      line++;
      pos = lineEnd;
      push(pos);
      continue;
    } else if (!seenContent && !NO_CONTENT_LINE.test(body.slice(pos, lineEnd))) {
      // Comments, blank lines and directives (`%YAML 1.1`) belong to the document that follows.
      seenContent = true;
    }
    line++;
    pos = lineEnd;
  }
  push(body.length);
  return segments;
}

/**
 * Finds the lines that begin with `---` or `...` (whether they are marker lines is for markerAt to
 * say). Each search result is kept until passed: a stream without `...` is searched for it once,
 * not once per document.
 */
function markerLineFinder(body: Body): (pos: number) => number {
  const found = { dash: -2, dot: -2 };
  const search = (key: 'dash' | 'dot', pattern: string, pos: number) => {
    if (found[key] !== -1 && found[key] < pos) {
      const at = body.indexOf(pattern, pos - 1); // pos is a line start: its \n is at pos - 1
      found[key] = at === -1 ? -1 : at + 1;
    }
    return found[key] === -1 ? body.length : found[key];
  };
  /** Returns the start of the first such line at or after `pos` (a line start), or the stream's
   * length. */
  return (pos) =>
    pos === 0 && (body.slice(0, 3) === '---' || body.slice(0, 3) === '...')
      ? 0
      : Math.min(search('dash', '\n---', pos), search('dot', '\n...', pos));
}

/**
 * Returns DASH for a `---` line, DOT for a `...` line, else 0: three equal characters at the line
 * start, then a space, a tab, a line break or the end of the stream.
 */
function markerAt(body: Body, pos: number): number {
  const c = body.charCodeAt(pos);
  if ((c !== DASH && c !== DOT) || body.charCodeAt(pos + 1) !== c || body.charCodeAt(pos + 2) !== c)
    return 0;
  if (pos + 3 === body.length) return c;
  const after = body.charCodeAt(pos + 3);
  return after === 0x20 || after === 0x09 || after === 0x0d || after === 0x0a ? c : 0;
}
