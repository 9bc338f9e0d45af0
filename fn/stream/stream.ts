/**
 * The plain multi-document stream (Helm 3 with `# Source:` comments, Helm 4 with the
 * post-renderer annotation, `kubectl kustomize` output, `kind: List` documents): documents a
 * mutator may need are parsed, the rest stay bytes, and the output is the segments joined.
 */
import { isMap } from 'yaml';
import { ManifestDocument } from '../document/manifest.ts';
import { KubeGracefulError } from '../engine/errors.ts';
import type { ExtraKind } from '../config/schema.ts';
import { isCandidateKind } from '../workloads/kinds.ts';
import { Resource } from '../workloads/resource.ts';
import { isCommentOnly, prescanKind, resourceHint } from './prescan.ts';
import { splitStream } from './split.ts';
import type { Segment } from './split.ts';

/** A read stream: each segment with its parsed document when one was needed. */
export interface StreamInput {
  readonly mode: 'stream';
  readonly bom: string;
  readonly entries: ReadonlyArray<{ readonly segment: Segment; readonly doc?: ManifestDocument }>;
  readonly resources: Resource[];
}

/** Options for reading: `parseAll` turns the kind pre-scan off (every document is parsed). */
export interface ReadOptions {
  readonly extraKinds: readonly ExtraKind[];
  readonly parseAll?: boolean;
}

/** Returns the stream read from `text`; throws KubeGracefulError on a document it cannot read. */
export function readStream(text: string, options: ReadOptions): StreamInput {
  const { bom, segments } = splitStream(text);
  const resources: Resource[] = [];
  const entries = segments.map((segment) => {
    if (isCommentOnly(segment.text)) return { segment };
    if (!options.parseAll && !isCandidateKind(prescanKind(segment.text), options.extraKinds)) return { segment };
    const doc = new ManifestDocument(segment.text, { document: segment.index + 1, line: segment.line });
    resources.push(...resourcesOf(doc));
    return { segment, doc };
  });
  return { mode: 'stream', bom, entries, resources };
}

/** Returns the stream's text: untouched segments as they came, edited ones with their edits. */
export function renderStream(input: StreamInput): string {
  return input.bom + input.entries.map((e) => e.doc?.text ?? e.segment.text).join('');
}

/** Returns the resources of a parsed document: itself, or each item of a `kind: List`. */
export function resourcesOf(doc: ManifestDocument): Resource[] {
  const contents = doc.document.contents;
  if (contents === null) return [];
  if (!isMap(contents)) {
    throw new KubeGracefulError('E_NOT_MAPPING', 'the document is not a mapping (a Kubernetes object is `key: value` pairs)', { ...doc.place, ...resourceHint(doc.text) }, 'Remove the document or fix its indentation; a top-level scalar or list is not a resource.');
  }
  const data = doc.data as { kind?: unknown; items?: unknown };
  if (data.kind === 'List' && Array.isArray(data.items)) {
    return data.items.map((item, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw new KubeGracefulError('E_NOT_MAPPING', `item ${index} of the List is not a mapping`, { ...doc.place, ...resourceHint(doc.text) });
      }
      return new Resource(doc, ['items', index]);
    });
  }
  return [new Resource(doc, [])];
}
