/**
 * A stream golden stores what a run changed: a unified diff of the input against the expected
 * output (`expected.diff`), not a copy of the whole output (issue #14 item 7). The test applies the
 * stored diff to the input and compares the result with the actual output byte for byte, so it is
 * exactly as strict as a whole copy. `diff` (jsdiff) writes and applies the patches; every line
 * keeps its own ending (a `\r` before the `\n` stays in the line), a missing final newline is
 * written as `\ No newline at end of file`, and a BOM is the first character of line 1
 * (test/helpers/goldenDiff.test.ts checks these round trips).
 */
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, structuredPatch } from 'diff';
import type { StructuredPatch } from 'diff';
import { LineCounter, parseAllDocuments, isMap, isSeq } from 'yaml';
import type { Node } from 'yaml';

/** Lines of context around each change, as `git diff` and GNU `diff -u` print by default. */
const CONTEXT = 3;

/**
 * Returns the unified diff that turns `input` into `output` (see `labelledDiff`). Throws when
 * applying it to the input would not give back `output` byte for byte.
 */
export function goldenDiff(inputName: string, input: string, output: string): string {
  const text = labelledDiff(inputName, 'kube-graceful output', input, output);
  if (applyGoldenDiff(input, text) !== output)
    throw new Error(`the diff of ${inputName} does not give back the output byte for byte`);
  return text;
}

/**
 * Returns a unified diff whose hunk headers name the resource the hunk's first change is in
 * (`@@ -12,6 +12,9 @@ Deployment/httpbin`), as `git diff` names the function, so a reviewer sees
 * what changed without opening the input.
 */
export function labelledDiff(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
): string {
  const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: CONTEXT,
  });
  const labels = hunkLabels(oldText, patch);
  let hunk = 0;
  return formatPatch(patch, FILE_HEADERS_ONLY).replace(/^@@ .* @@$/gm, (header) => {
    const label = labels[hunk++];
    return label ? `${header} ${label}` : header;
  });
}

/**
 * Returns `input` with the stored diff applied, or undefined unless every hunk fits the input
 * exactly at the line its header states. jsdiff's `applyPatch` alone would be more lenient: it
 * moves a hunk to where its lines match further up or down (so a golden would follow an edited
 * input silently) and converts the patch to the input's line endings (`autoConvertLineEndings`,
 * on by default in jsdiff 8 and 9); a whole copy allowed neither.
 */
export function applyGoldenDiff(input: string, diffText: string): string | undefined {
  const patches = parsePatch(diffText);
  if (patches.length !== 1 || !atStatedLines(input, patches[0]!)) return undefined;
  const result = applyPatch(input, patches[0]!, { fuzzFactor: 0, autoConvertLineEndings: false });
  return result === false ? undefined : result;
}

/**
 * Returns whether each hunk's context and removed lines are the input's lines from its `-start`.
 */
function atStatedLines(input: string, patch: StructuredPatch): boolean {
  const lines = input.split('\n');
  return patch.hunks.every((hunk) => {
    // A hunk's old lines in order: context (' ') and removed ('-'); '\\' marks a missing final
    // newline.
    const old = hunk.lines
      .filter((line) => line.startsWith(' ') || line.startsWith('-'))
      .map((line) => line.slice(1));
    // `-0,0` (an empty input) counts from 0; any other start is 1-based.
    const first = hunk.oldLines === 0 && hunk.oldStart === 0 ? 0 : hunk.oldStart - 1;
    return old.length === hunk.oldLines && old.every((line, i) => lines[first + i] === line);
  });
}

/** Returns, per hunk, `Kind/name` of the resource that holds the hunk's first changed line. */
function hunkLabels(input: string, patch: StructuredPatch): Array<string | undefined> {
  if (patch.hunks.length === 0) return [];
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(input, { version: '1.1', lineCounter });
  if (!Array.isArray(docs)) return [];
  const lineStarts = lineCounter.lineStarts;
  return patch.hunks.map((hunk) => {
    const leadingContext = hunk.lines.findIndex(
      (line) => line.startsWith('-') || line.startsWith('+'),
    );
    // Line numbers are 1-based; a hunk that only adds lines at the end starts past the last line.
    const line = Math.min(hunk.oldStart + Math.max(leadingContext, 0), lineStarts.length);
    const offset = lineStarts[Math.max(line - 1, 0)] ?? 0;
    const doc = docs.find((d) => d.range[0] <= offset && offset <= d.range[2]);
    return doc?.contents ? resourceAt(doc.contents, offset) : undefined;
  });
}

/**
 * Returns `Kind/name` of the object at `offset`, looking into the items of a List or ResourceList.
 */
function resourceAt(node: Node, offset: number): string | undefined {
  if (!isMap(node)) return undefined;
  const kind = node.get('kind');
  const metadata = node.get('metadata');
  const name = isMap(metadata) ? metadata.get('name') : undefined;
  const items = node.get('items', true);
  if (isSeq(items)) {
    const item = items.items.find(
      (i) => isMap(i) && i.range && i.range[0] <= offset && offset <= i.range[2],
    );
    const inner = item ? resourceAt(item as Node, offset) : undefined;
    if (inner) return `${String(kind)} ${inner}`;
  }
  if (typeof kind !== 'string') return undefined;
  return typeof name === 'string' ? `${kind}/${name}` : kind;
}
