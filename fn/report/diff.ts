/**
 * `--diff`: the unified diff of the input and the output, as `diff -u` and the diff package's
 * createTwoFilesPatch write it (3 lines of context, headers `--- input` and `+++ output`).
 *
 * A line diff (Myers' algorithm, the diff package's diffLines) costs about the lines of the texts
 * times the lines that change: on bookinfo in 400 namespaces (142,000 lines, 2,400 Deployments
 * edited) one diff of the whole took minutes (issue #16). But an edit never crosses a document.
 * So the stream is cut into documents at its `---` lines, and each document is diffed against its
 * counterpart alone (lineChanges): the line changes of the whole are those of its documents one
 * after the other, and the hunks are made from them as the diff package makes them (hunksOf). A
 * ResourceList has no `---` line: it is cut before each of its items instead (itemsOf), and a
 * list of 600 Deployments is diffed in a second rather than 20 (issue #34 item 4).
 */
import { diffArrays, diffLines, formatPatch } from 'diff';
import type { StructuredPatchHunk } from 'diff';
import { appendAll } from '../core/appendAll.ts';

/** Lines kept, removed or added, each with its line feed (the last line of a text may lack it). */
interface LineChange {
  readonly kind: ' ' | '-' | '+';
  readonly lines: string[];
}

/** Returns the unified diff of `before` and `after`; empty when they are equal. */
export function unifiedDiff(before: string, after: string, context = 3): string {
  if (before === after) return '';
  return formatPatch({
    oldFileName: 'input',
    newFileName: 'output',
    oldHeader: '',
    newHeader: '',
    hunks: hunksOf(lineChanges(before, after), context),
  });
}

/** A document marker line: `---` or `...`, alone or followed by a blank (YAML 1.2 §9.1). */
const MARKER = /^(?:---|\.\.\.)(?:[ \t\r\n]|$)/;

/**
 * Cuts a text before each document marker line: the parts joined are the text, and each part
 * after the first starts with its marker line (the first is empty when the text starts with one,
 * so that a line written before the first marker still has a part to go to). Not the run's
 * splitStream (fn/stream/split.ts): it keeps documents with no content together with the next,
 * so an empty document that gets a line would change the count of parts and lose the pairing.
 */
export function documentsOf(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline + 1;
    if (MARKER.test(text.slice(at, Math.min(next, at + 4)))) {
      parts.push(text.slice(start, at));
      start = at;
    }
    at = next;
  }
  parts.push(text.slice(start));
  return parts;
}

/** A ResourceList's `items:` key, alone on its line (block layout, as kpt and kustomize write). */
const ITEMS_KEY = /^items:[ \t]*(?:#.*)?\r?$/m;

/**
 * Returns the parts a text is diffed in: its documents, or a ResourceList's items. No edit
 * crosses an item, as none crosses a document: the list's header, each item, and each top-level
 * key after them (`functionConfig`, `results`) is a part.
 */
function partsOf(text: string): string[] {
  const documents = documentsOf(text);
  if (documents.length > 1 || !/^kind:[ \t]*ResourceList\b/m.test(text)) return documents;
  const items = ITEMS_KEY.exec(text);
  return items ? itemsOf(text, items.index) : documents;
}

/**
 * Cuts a ResourceList before each item (a line with the items' `- ` at their indentation) and
 * before each top-level key after `items:`; `itemsLine` is the offset where the `items:` line
 * starts.
 */
export function itemsOf(text: string, itemsLine: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let indent: string | undefined;
  for (let at = text.indexOf('\n', itemsLine) + 1; at > 0 && at < text.length;) {
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline + 1;
    const line = text.slice(at, next);
    indent ??= /^( *)- /.exec(line)?.[1];
    const item = indent !== undefined && line.startsWith(`${indent}- `);
    const key = /^[^\s#-]/.test(line);
    if (item || key) {
      parts.push(text.slice(start, at));
      start = at;
    }
    at = next;
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The line changes from `before` to `after`. With as many documents on both sides, each document
 * is diffed with the one in its place. Else (a document added: istio-gateway-api's ConfigMap) the
 * documents are matched by text first, and the ones between two matched ones diffed together.
 */
function lineChanges(before: string, after: string): LineChange[] {
  const changes: LineChange[] = [];
  const push = (kind: LineChange['kind'], text: string) => {
    if (text === '') return;
    const lines = linesOf(text);
    const last = changes.at(-1);
    // A part may keep a few hundred thousand lines (a package of indented JSON schemas).
    if (last?.kind === kind) appendAll(last.lines, lines);
    else changes.push({ kind, lines });
  };
  const diffTexts = (old: string, now: string) => {
    if (old === now) push(' ', old);
    else
      for (const change of diffLines(old, now))
        push(change.added ? '+' : change.removed ? '-' : ' ', change.value);
  };
  const [from, to] = [partsOf(before), partsOf(after)];
  // As many documents on both sides (a transform adds none): each is its counterpart, by place.
  if (from.length === to.length) {
    from.forEach((document, d) => diffTexts(document, to[d]!));
    return changes;
  }
  const documents = diffArrays(from, to);
  for (let i = 0; i < documents.length;) {
    if (!documents[i]!.removed && !documents[i]!.added) {
      push(' ', documents[i++]!.value.join(''));
      continue;
    }
    // A run of changed documents, diffed together as the whole text would be.
    let removed = '';
    let added = '';
    for (; i < documents.length && (documents[i]!.removed || documents[i]!.added); i++)
      if (documents[i]!.removed) removed += documents[i]!.value.join('');
      else added += documents[i]!.value.join('');
    diffTexts(removed, added);
  }
  return changes;
}

/** A text's lines, each with its line feed (the diff package's splitLines). */
function linesOf(text: string): string[] {
  const lines = text.split('\n').map((line) => `${line}\n`);
  if (text.endsWith('\n')) lines.pop();
  else lines.push(lines.pop()!.slice(0, -1));
  return lines;
}

/**
 * The hunks of a unified diff with `context` lines around each change, as the diff package's
 * structuredPatch makes them from diffLines' changes (src/patch/create.ts@v9.0.0): changes closer
 * than twice the context share a hunk, and a last line without a line feed is followed by
 * `\ No newline at end of file`.
 */
function hunksOf(changes: readonly LineChange[], context: number): StructuredPatchHunk[] {
  const hunks: StructuredPatchHunk[] = [];
  let hunk: StructuredPatchHunk | undefined;
  let oldLine = 1;
  let newLine = 1;
  changes.forEach((change, i) => {
    if (change.kind !== ' ') {
      if (!hunk) {
        const lead = i > 0 && context > 0 ? changes[i - 1]!.lines.slice(-context) : [];
        hunk = {
          oldStart: oldLine - lead.length,
          oldLines: 0,
          newStart: newLine - lead.length,
          newLines: 0,
          lines: lead.map((line) => ` ${line}`),
        };
      }
      for (const line of change.lines) hunk.lines.push(change.kind + line);
      if (change.kind === '+') newLine += change.lines.length;
      else oldLine += change.lines.length;
      return;
    }
    if (hunk) {
      if (change.lines.length <= context * 2 && i < changes.length - 1) {
        for (const line of change.lines) hunk.lines.push(` ${line}`);
      } else {
        const trail = change.lines.slice(0, context);
        for (const line of trail) hunk.lines.push(` ${line}`);
        hunk.oldLines = oldLine - hunk.oldStart + trail.length;
        hunk.newLines = newLine - hunk.newStart + trail.length;
        hunks.push(hunk);
        hunk = undefined;
      }
    }
    oldLine += change.lines.length;
    newLine += change.lines.length;
  });
  if (hunk) {
    hunk.oldLines = oldLine - hunk.oldStart;
    hunk.newLines = newLine - hunk.newStart;
    hunks.push(hunk);
  }
  for (const { lines } of hunks)
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.endsWith('\n')) lines[i] = lines[i]!.slice(0, -1);
      else lines.splice(++i, 0, '\\ No newline at end of file');
    }
  return hunks;
}
