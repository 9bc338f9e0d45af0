/**
 * Our results go after the ones already in the list, which come back byte for byte (issue #15:
 * an earlier function's results in a kpt pipeline lost their comments, and `y` became `true`, when
 * the whole `results` was written again). Ours are written in the style of the list that holds
 * them: a block list at its own indentation, or flow items inside a flow list. With no results
 * yet, `results:` is added as a new key after the last one, as for any field (splice.ts).
 *
 * The edit is planned and checked on the list's frame (the list less its items' text, layout.ts),
 * so a 13 MB list is not parsed again to add a few results.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseDocument, stringify } from 'yaml';
import type { Document, Node, YAMLSeq } from 'yaml';
import { planSplices } from '../document/splice.ts';
import type { Edit } from '../document/splice.ts';
import { flowYaml } from '../yaml/aliases.ts';
import { MAX_ALIAS_COUNT, parseOptions, stringifyOptions } from '../yaml/options.ts';
import { columnOf } from '../core/positions.ts';

/** The list less its items' text, parsed, and the way from its offsets to the list's. */
export interface Frame {
  readonly text: string;
  readonly doc: Document;
  readonly toListOffset: (frameOffset: number) => number;
}

/**
 * Returns the edit (in the list's offsets) that appends `ours` to the list's results, or undefined
 * when the frame does not read back as the old results followed by ours (the caller then sets the
 * whole `results`, as a tree edit would).
 */
export function appendResultsEdit(
  frame: Frame,
  before: readonly unknown[],
  ours: readonly unknown[],
): Edit | undefined {
  const root = frame.doc.contents;
  if (!isMap(root)) return undefined;
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'results');
  const node = pair?.value as Node | null | undefined;
  const crlf = frame.text.includes('\r\n');
  let edit: Edit | undefined;
  if (isSeq(node) && node.items.length > 0) {
    edit = node.flow ? appendFlow(frame.text, node, ours) : appendBlock(frame.text, node, ours);
    if (edit && crlf) edit = { ...edit, text: edit.text.replace(/\r?\n/g, '\r\n') };
  } else {
    // None yet (absent, `~`, `[]`): a new `results` field, as any field is set.
    edit = planSplices(frame.text, frame.doc, [{ path: ['results'], value: ours }])?.[0];
  }
  if (!edit || !readsBack(frame.text, edit, [...before, ...ours])) return undefined;
  return {
    start: frame.toListOffset(edit.start),
    end: frame.toListOffset(edit.end),
    text: edit.text,
  };
}

/** Block items after the last one, at the list's own indentation (`results:\n- …` or `results:\n  -
 * …`). */
function appendBlock(text: string, seq: YAMLSeq, ours: readonly unknown[]): Edit | undefined {
  if (!seq.range) return undefined;
  const column = columnOf(text, seq.range[0]);
  const block = stringify(ours, stringifyOptions(false))
    .replace(/\n$/, '')
    .replace(/\n/g, `\n${' '.repeat(column)}`);
  const end = seq.range[1];
  if (text[end - 1] === '\n') return { start: end, end, text: `${' '.repeat(column)}${block}\n` };
  // After a comment that ends the last item's line, so the comment stays on its own line.
  const newline = text.indexOf('\n', end);
  let lineEnd = newline === -1 ? text.length : newline;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  if (!/^[ \t]*(?:#.*)?$/.test(text.slice(end, lineEnd))) return undefined;
  return { start: lineEnd, end: lineEnd, text: `\n${' '.repeat(column)}${block}` };
}

/** Flow items before the closing `]`. */
function appendFlow(text: string, seq: YAMLSeq, ours: readonly unknown[]): Edit | undefined {
  if (!seq.range) return undefined;
  const close = text.lastIndexOf(']', seq.range[1] - 1);
  if (close < seq.range[0]) return undefined;
  return { start: close, end: close, text: `, ${ours.map(flowYaml).join(', ')}` };
}

/** True when the frame with the edit reads as valid YAML whose results are `expected`. */
function readsBack(text: string, edit: Edit, expected: readonly unknown[]): boolean {
  const doc = parseDocument(
    text.slice(0, edit.start) + edit.text + text.slice(edit.end),
    parseOptions(),
  );
  if (doc.errors.length || !isMap(doc.contents)) return false;
  try {
    return isDeepStrictEqual(
      (doc.contents.get('results', true) as Node | undefined)?.toJS(doc, {
        maxAliasCount: MAX_ALIAS_COUNT,
      }),
      expected,
    );
  } catch {
    return false;
  }
}
