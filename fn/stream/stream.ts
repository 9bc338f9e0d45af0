/**
 * The plain multi-document stream (Helm 3 with `# Source:` comments, Helm 4 with the
 * post-renderer annotation, `kubectl kustomize` output, `kind: List` documents): documents a
 * mutator may need are parsed, the rest stay bytes, and the output is the segments joined.
 */
import { isMap, isScalar } from 'yaml';
import type { Document } from 'yaml';
import { ManifestDocument } from '../document/manifest.ts';
import { KubeGracefulError } from '../core/errors.ts';
import { optimizeForLongRun } from './tiering.ts';
import { keepYoungGenerationSmall } from './youngGeneration.ts';
import type { ExtraKind } from '../config/schema.ts';
import { isCandidateKind, isMentionedObject, objectKindsIn } from '../workloads/kinds.ts';
import type { ObjectKinds } from '../workloads/kinds.ts';
import { Resource } from '../workloads/resource.ts';
import { checkDirectives } from './directives.ts';
import { isCommentOnly, prescanKind, resourceHint } from '../document/prescan.ts';
import { splitBytes, splitStream } from './split.ts';
import type { Segment } from './split.ts';
import { appendAll } from '../core/appendAll.ts';

/** A read stream: each segment with its parsed document when one was needed. */
export interface StreamInput {
  readonly mode: 'stream';
  readonly bom: string;
  readonly entries: ReadonlyArray<{ readonly segment: Segment; readonly doc?: ManifestDocument }>;
  readonly resources: Resource[];
  /** The input bytes, when the stream was read from bytes (segments then hold a latin1 view). */
  readonly bytes?: Buffer;
}

/** Options for reading: `parseAll` turns the kind pre-scan off (every document is parsed). */
export interface ReadOptions {
  readonly extraKinds: readonly ExtraKind[];
  /** The kinds object mutators change and read: parsed as well (the engine derives them from its
   * mutators). */
  readonly objectKinds?: ObjectKinds;
  readonly parseAll?: boolean;
}

/** The UTF-8 byte-order mark. */
export const BOM_BYTES = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A stream as bytes (valid UTF-8, as the CLI reads stdin). The split and the pre-scan read each
 * segment as a latin1 view of its bytes (split.ts splitBytes): one character per byte, so offsets
 * are byte offsets, and every byte of a multi-byte character is 0x80 or more, never the ASCII that
 * markers, `kind:` and line breaks are made of. Only documents that are parsed are decoded, and the
 * rest go out as the bytes they came as (issue #9: decoding and re-encoding a 4.7 MB stream was a
 * tenth of its run).
 */
export interface ByteStream {
  readonly bytes: Buffer;
  readonly bomLength: number;
}

/** Returns the byte stream of `bytes`. */
export function byteStream(bytes: Buffer): ByteStream {
  return { bytes, bomLength: bytes.subarray(0, 3).equals(BOM_BYTES) ? 3 : 0 };
}

/** Returns the stream read from `input`; throws KubeGracefulError on a document it cannot read. */
export function readStream(input: string | ByteStream, options: ReadOptions): StreamInput {
  const plan = planStream(input, options);
  const resources: Resource[] = [];
  const entries = plan.segments.map((segment, i) => {
    if (!plan.parsed[i]) return { segment };
    const doc = plan.document(segment);
    appendAll(resources, resourcesOf(doc));
    return { segment, doc };
  });
  return {
    mode: 'stream',
    bom: plan.bom,
    entries,
    resources,
    ...(plan.bytes ? { bytes: plan.bytes } : {}),
  };
}

/** A stream cut into segments, with which of them must be parsed, before any is. */
export interface StreamPlan {
  readonly bom: string;
  readonly segments: readonly Segment[];
  /** Per segment: whether it must be parsed (its kind may matter, or `parseAll`). */
  readonly parsed: readonly boolean[];
  /** Per segment: its kind as the pre-scan reads it (undefined: not known, or no content). */
  readonly kinds: ReadonlyArray<string | undefined>;
  /** The object kinds this input needs (objectKindsIn). */
  readonly objectKinds?: ObjectKinds;
  /** The input bytes, when the stream is read from bytes (segments then hold a latin1 view). */
  readonly bytes?: Buffer;
  /** Returns the segment's document, unparsed (decoded from the bytes); throws on a repeated
   * directive. */
  document(segment: Segment): ManifestDocument;
  /**
   * Returns the output of the segments from `first` to `last` (the same by default), which pass
   * through: their bytes as they came (one view), or their text, as the input was given.
   */
  passThrough(first: Segment, last?: Segment): string | Uint8Array;
  /** Returns a document's output: its bytes as they came when unchanged, else its text (encoded for
   * bytes). */
  rendered(segment: Segment, doc: ManifestDocument): string | Uint8Array;
}

/**
 * Returns the plan of reading `input`: the split and the kind pre-scan, nothing parsed yet. Lifts
 * V8's optimizing cap when there is much to parse (tiering.ts).
 */
export function planStream(input: string | ByteStream, options: ReadOptions): StreamPlan {
  const source = typeof input === 'string' ? undefined : input;
  const { bom, segments } = source
    ? {
        bom: source.bomLength ? '\uFEFF' : '',
        segments: splitBytes(source.bytes, source.bomLength),
      }
    : splitStream(input as string);
  // A segment split from bytes makes its text anew at each read: read once here, and below only
  // where a kind is told by a mention (objectKindsIn, isMentionedObject).
  const content: boolean[] = [];
  const kinds = segments.map((segment, i) => {
    // The byte split already looked at the young generation as it cut (splitBytes).
    if (!source) keepYoungGenerationSmall(segment.length);
    const text = segment.text;
    content[i] = !isCommentOnly(text);
    return content[i] ? prescanKind(text) : undefined;
  });
  const objectKinds = objectKindsIn(
    options.objectKinds,
    segments.flatMap((segment, i) =>
      content[i]
        ? [
            {
              kind: kinds[i],
              get text() {
                return segment.text;
              },
            },
          ]
        : [],
    ),
  );
  const parsed = segments.map(
    (segment, i) =>
      content[i]! &&
      (options.parseAll ||
        isCandidateKind(kinds[i], options.extraKinds, objectKinds) ||
        isMentionedObject(kinds[i], () => segment.text, objectKinds)),
  );
  optimizeForLongRun(
    segments.reduce((sum, segment, i) => (parsed[i] ? sum + segment.length : sum), 0),
  );
  const startOf = (segment: Segment) => (source?.bomLength ?? 0) + segment.offset;
  const passThrough = (first: Segment, last = first) =>
    source
      ? source.bytes.subarray(startOf(first), startOf(last) + last.length)
      : first === last
        ? first.text
        : segments
            .slice(first.index, last.index + 1)
            .map((segment) => segment.text)
            .join('');
  return {
    bom,
    segments,
    parsed,
    kinds,
    ...(objectKinds ? { objectKinds } : {}),
    ...(source ? { bytes: source.bytes } : {}),
    document(segment) {
      keepYoungGenerationSmall(segment.length);
      const start = startOf(segment);
      const text = source
        ? source.bytes.toString('utf8', start, start + segment.length)
        : segment.text;
      const place = { document: segment.index + 1, line: segment.line };
      checkDirectives(text, place);
      return new ManifestDocument(text, place);
    },
    passThrough,
    rendered(segment, doc) {
      if (!source) return doc.text;
      return doc.changed ? Buffer.from(doc.text, 'utf8') : passThrough(segment);
    },
  };
}

/** Returns the stream's text: untouched segments as they came, edited ones with their edits. */
export function renderStream(input: StreamInput): string {
  if (input.bytes) return Buffer.concat(renderStreamChunks(input)).toString('utf8');
  return input.bom + input.entries.map((e) => e.doc?.text ?? e.segment.text).join('');
}

/**
 * Returns the stream's bytes in order, one chunk per segment: untouched segments as the bytes they
 * came as (views of the input, not copies), edited ones encoded. They are written as they are
 * (one writev), never joined into one more copy of the stream.
 */
function renderStreamChunks(input: StreamInput): Uint8Array[] {
  const bytes = input.bytes;
  if (!bytes) return [Buffer.from(renderStream(input), 'utf8')];
  const bomLength = input.bom ? 3 : 0;
  const chunks: Uint8Array[] = input.bom ? [BOM_BYTES] : [];
  for (const { segment, doc } of input.entries) {
    const start = bomLength + segment.offset;
    chunks.push(
      doc?.changed ? Buffer.from(doc.text, 'utf8') : bytes.subarray(start, start + segment.length),
    );
  }
  return chunks;
}

/**
 * Whether a document's node is YAML's empty node: `---` and nothing after it, which the grammar
 * allows (YAML 1.2.2 §9.1.4, l-explicit-document ends in `e-node`). A segment of only markers and
 * comments is never parsed (isCommentOnly); one that also holds a directive (`%YAML 1.2` then
 * `---`) is, and used to be refused as "not a mapping" although it holds no object at all, exactly
 * like a bare `---` (the YAML test suite, cases 9MMA/SF5V; issue #15.6). `--- ~`, `--- null` and
 * `--- !!null` write a null out: those are scalars and stay refused.
 */
function isEmptyNode(node: Document['contents']): boolean {
  return (
    isScalar(node) &&
    node.value === null &&
    node.source === '' &&
    node.tag === undefined &&
    node.anchor === undefined
  );
}

/** Returns the resources of a parsed document: itself, or each item of a `kind: List`. */
export function resourcesOf(doc: ManifestDocument): Resource[] {
  const contents = doc.document.contents;
  if (contents === null || isEmptyNode(contents)) return [];
  if (!isMap(contents)) {
    throw new KubeGracefulError(
      'E_NOT_MAPPING',
      'the document is not a mapping (a Kubernetes object is `key: value` pairs)',
      { ...doc.place, ...resourceHint(doc.text) },
      'Remove the document or fix its indentation; a top-level scalar or list is not a resource.',
    );
  }
  const data = doc.data as { kind?: unknown; items?: unknown };
  if (data.kind === 'List' && Array.isArray(data.items)) {
    return data.items.map((item, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw new KubeGracefulError('E_NOT_MAPPING', `item ${index} of the List is not a mapping`, {
          ...doc.place,
          ...resourceHint(doc.text),
        });
      }
      return new Resource(doc, ['items', index]);
    });
  }
  return [new Resource(doc, [])];
}
