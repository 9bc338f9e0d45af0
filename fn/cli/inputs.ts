/**
 * The input of `explain` and `check`: files named on the command line (or stdin, `-`), read as
 * one stream, and the way back from a document number to `file:line` for messages.
 *
 * Files are joined so that each one starts a new document (a `---` is put between them when the
 * next file does not start with one), so a document never spans two files.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { FieldPath } from '../core/fieldPath.ts';
import type { Finding } from '../core/records.ts';
import { KubeGracefulError } from '../core/errors.ts';
import { looksLikeResourceList } from '../krm/resourceList.ts';
import { splitStream } from '../stream/split.ts';
import type { Segment } from '../stream/split.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { parseOptions } from '../yaml/options.ts';
import { expandInputPaths } from './inputPaths.ts';
import { readInputFile } from './io.ts';

/**
 * Where something is in the files the user named. `line` and `column` are 1-based; absent when
 * unknown (a column only where a field was found).
 */
export interface Location {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

/** One file as read, and where its text starts in the joined stream. */
interface Part {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** 1-based line of the joined stream at which the file's first line sits. */
  readonly firstLine: number;
}

/** The joined input and the map back to files. */
export interface Inputs {
  readonly text: string;
  /** True when the input is one KRM ResourceList (kpt and kustomize send one on stdin). */
  readonly resourceList: boolean;
  /** A ResourceList's number of items (all of them: the engine parses only those it may need). */
  readonly items?: number;
  /**
   * Returns where document `document` (1-based, as in records) starts; for ResourceList items, the
   * item's own file when kpt names it.
   */
  locate(document: number, resource?: ResourceRef, path?: FieldPath): Location | undefined;
  /**
   * False when the only input is stdin: there is no file to name, and messages keep the stream's
   * own document and line.
   */
  readonly named: boolean;
  /** The files read, in order (`<stdin>` for stdin), for reports that name their input. */
  readonly files: readonly string[];
  /**
   * Returns `error` with its place in the joined stream (document N, line L of all the files
   * together) turned into the file and the line within it (issue #28: "document 10, line 244"
   * was broken.yaml line 28); `error` itself when it has no place.
   */
  relocate(error: KubeGracefulError): KubeGracefulError;
}

/** Returns `file:line:column` (or `file:line`, or `file`) for messages. */
export function formatLocation(location: Location | undefined): string | undefined {
  if (!location) return undefined;
  if (location.line === undefined) return location.file;
  const column = location.column === undefined ? '' : `:${location.column}`;
  return `${location.file}:${location.line}${column}`;
}

/** Returns where a finding is, as formatLocation writes it; undefined for a run-wide finding. */
export function findingLocation(finding: Finding, inputs: Inputs): string | undefined {
  return finding.document === undefined
    ? undefined
    : formatLocation(inputs.locate(finding.document, finding.resource, finding.path));
}

/**
 * Runs `work` (a transform of `inputs.text`) and returns what it returns; a KubeGracefulError it
 * throws is rethrown with its place in the named files (Inputs.relocate).
 */
export function inFiles<T>(inputs: Inputs, work: () => T): T {
  try {
    return work();
  } catch (error) {
    // An error that names its file already (a config file's) is not about the joined stream.
    throw error instanceof KubeGracefulError && inputs.named && error.place.file === undefined
      ? inputs.relocate(error)
      : error;
  }
}

/** Returns `error` with `at` as its place: the file, line and column instead of the document. */
function placedIn(error: KubeGracefulError, at: Location): KubeGracefulError {
  const { document: _inStream, line: _line, column: _column, ...rest } = error.place;
  return new KubeGracefulError(
    error.code,
    error.message,
    {
      ...rest,
      file: at.file,
      ...(at.line !== undefined ? { line: at.line } : {}),
      ...(at.column !== undefined ? { column: at.column } : {}),
    },
    error.hint,
  );
}

const STDIN_NAME = '<stdin>';

/**
 * Returns the joined input of `paths` (stdin when empty; a folder: the manifest files under it,
 * inputPaths.ts); throws KubeGracefulError when a file can't be read.
 */
export function readInputs(paths: readonly string[]): Inputs {
  // Nothing named is stdin; folders with no manifest in them are nothing, not stdin.
  const names = paths.length ? expandInputPaths(paths) : ['-'];
  if (names.filter((p) => p === '-').length > 1)
    throw new KubeGracefulError('E_USAGE', 'stdin (-) named more than once', {}, 'Name - once.');
  const texts = names.map((path) => ({
    name: path === '-' ? STDIN_NAME : path,
    text: readInputFile(path),
  }));
  if (texts.length > 1) {
    const list = texts.find((t) => looksLikeResourceList(t.text));
    if (list)
      throw new KubeGracefulError(
        'E_USAGE',
        `${list.name} is a ResourceList, which cannot be joined with other files`,
        {},
        'Pass a ResourceList alone (as kpt and kustomize do on stdin), or plain manifest files.',
      );
  }
  let text = '';
  let line = 1;
  const parts: Part[] = [];
  for (const [index, file] of texts.entries()) {
    const body = index > 0 ? file.text.replace(/^\uFEFF/, '') : file.text;
    if (index > 0 && body.length > 0) {
      if (!text.endsWith('\n') && text.length > 0) {
        text += '\n';
        line += 1;
      }
      if (!startsWithMarker(body)) {
        text += '---\n';
        line += 1;
      }
    }
    parts.push({
      name: file.name,
      start: text.length,
      end: text.length + body.length,
      firstLine: line,
    });
    text += body;
    line += countNewlines(body);
  }
  const resourceList = texts.length === 1 && looksLikeResourceList(text);
  const named = !(texts.length === 1 && names[0] === '-');
  const files = texts.map((t) => t.name);
  return resourceList
    ? resourceListInputs(text, parts[0]!.name, named, files)
    : streamInputs(text, parts, named, files);
}

/** True when the first line that is not blank or a comment is a `---` marker. */
function startsWithMarker(text: string): boolean {
  for (const line of text.split('\n')) {
    if (/^\s*(#.*)?\r?$/.test(line)) continue;
    return /^---(?:[ \t\r]|$)/.test(line);
  }
  return true; // only comments: nothing for a following document to merge with
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function streamInputs(
  text: string,
  parts: readonly Part[],
  named: boolean,
  files: readonly string[],
): Inputs {
  const { bom, segments } = splitStream(text);
  /** The file a line of the joined stream is in, and the line within it. */
  const fileLine = (line: number): Location | undefined => {
    const part = [...parts].reverse().find((p) => p.firstLine <= line);
    return part && { file: part.name, line: line - part.firstLine + 1 };
  };
  const inputs: Inputs = {
    text,
    resourceList: false,
    named,
    files,
    relocate(error) {
      const { line, column, document } = error.place;
      const at =
        line !== undefined
          ? fileLine(line)
          : document !== undefined
            ? inputs.locate(document)
            : undefined;
      if (!at) return error;
      return placedIn(error, line !== undefined && column !== undefined ? { ...at, column } : at);
    },
    locate(document, resource, path) {
      const segment = segments[document - 1];
      if (!segment) return undefined;
      const content = contentLine(segment);
      const offset = bom.length + segment.offset + content.offset;
      const part =
        parts.find((p) => offset >= p.start && offset < p.end) ??
        [...parts].reverse().find((p) => p.start <= offset);
      if (!part) return undefined;
      const inSegment = path ? fieldPosition(segment.text, resource, path) : undefined;
      const streamLine =
        inSegment === undefined ? segment.line + content.lines : segment.line + inSegment.line - 1;
      return {
        file: part.name,
        line: streamLine - part.firstLine + 1,
        ...(inSegment ? { column: inSegment.column } : {}),
      };
    },
  };
  return inputs;
}

/**
 * The first line of a segment that is not blank, a comment or a marker: where the object starts.
 */
function contentLine(segment: Segment): { offset: number; lines: number } {
  let offset = 0;
  let lines = 0;
  for (const line of segment.text.split('\n')) {
    if (!/^(?:\s*(?:#.*)?|---.*|%.*)\r?$/.test(line)) return { offset, lines };
    offset += line.length + 1;
    lines += 1;
  }
  return { offset: 0, lines: 0 };
}

/**
 * Returns the line and column (1-based, within the document's text) of the deepest node along
 * `path` that exists in the document (the field itself, or the object that would hold it), or
 * undefined when the document can't be read.
 */
function fieldPosition(
  text: string,
  resource: ResourceRef | undefined,
  path: FieldPath,
): { line: number; column: number } | undefined {
  const counter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { ...parseOptions(), lineCounter: counter });
  } catch {
    return undefined;
  }
  if (doc.errors.length) return undefined;
  let node = doc.contents as Node | null;
  // A `kind: List`: start at the item that is the resource.
  if (isMap(node) && String(node.get('kind')) === 'List' && resource) {
    const items = node.get('items', true);
    const item = isSeq(items)
      ? items.items.find(
          (it) =>
            isMap(it) &&
            String(it.get('kind')) === resource.kind &&
            String(
              (it.get('metadata', true) as { get?: (k: string) => unknown } | undefined)?.get?.(
                'name',
              ),
            ) === resource.name,
        )
      : undefined;
    node = (item as Node | undefined) ?? node;
  }
  // The line of the last step that exists: a map key's own line (`env:`), a list item's `- `.
  let offset = node?.range?.[0];
  for (const segment of path) {
    let next: unknown;
    let at: number | undefined;
    if (isMap(node) && typeof segment === 'string') {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      next = pair?.value;
      at = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    } else if (isSeq(node) && typeof segment === 'object') {
      next = node.items.find((it) => isMap(it) && String(it.get(segment.key)) === segment.equals);
    }
    if (next === undefined || next === null || typeof next !== 'object' || !('range' in next)) {
      if (at !== undefined) offset = at;
      break;
    }
    node = next as Node;
    offset = at ?? node.range?.[0];
  }
  if (offset === undefined) return undefined;
  const { line, col } = counter.linePos(offset);
  return { line, column: col };
}

function resourceListInputs(
  text: string,
  name: string,
  named: boolean,
  files: readonly string[],
): Inputs {
  const counter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions(), lineCounter: counter });
  const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
  return {
    text,
    resourceList: true,
    named,
    files,
    // One file, read whole: a line of the list is a line of the file.
    relocate: (error) =>
      error.place.line === undefined && error.place.document === undefined
        ? error
        : placedIn(error, {
            file: name,
            ...(error.place.line !== undefined ? { line: error.place.line } : {}),
            ...(error.place.column !== undefined ? { column: error.place.column } : {}),
          }),
    items: isSeq(items) ? items.items.length : 0,
    locate(document) {
      const item = isSeq(items) ? items.items[document - 1] : undefined;
      if (!isMap(item)) return undefined;
      const annotations =
        (item.toJSON() as { metadata?: { annotations?: Record<string, string> } }).metadata
          ?.annotations ?? {};
      const path =
        annotations['internal.config.kubernetes.io/path'] ??
        annotations['config.kubernetes.io/path'];
      if (path) return { file: path };
      const offset = item.range?.[0];
      return offset === undefined
        ? { file: name }
        : { file: name, line: counter.linePos(offset).line };
    },
  };
}
