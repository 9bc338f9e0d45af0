/**
 * Our results go after the ones already in the list, which come back byte for byte (issue #15:
 * an earlier function's results in a kpt pipeline lost their comments, and `y` became `true`, when
 * the whole `results` was written again). Ours are written in the style of the list that holds
 * them: a block list at its own indentation, or flow items inside a flow list. With no results
 * yet, `results:` is added as a new key after the last one, as for any field (splice.ts).
 *
 * The results of an earlier kube-graceful run (isOwnResult) are taken out: a run's results say what
 * that run did and found, and a second run used to add its own after the first's (issue #33 item
 * 8). Each goes from its `-` line to the end of its last line; the other functions' results and the
 * lines between items (comments) stay as they are.
 *
 * The edit is planned and checked on the list's frame (the list less its items' text, layout.ts),
 * so a 13 MB list is not parsed again to add a few results.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node, YAMLSeq } from 'yaml';
import { blockText, indentSeqOf, planSplices } from '../document/splice.ts';
import type { Edit } from '../document/edit.ts';
import { flowYaml } from '../yaml/aliases.ts';
import { MAX_ALIAS_COUNT, parseOptions } from '../yaml/options.ts';
import { columnOf, lineStartOf } from '../core/positions.ts';
import { isOwnResult } from './results.ts';
import { resultsInParts } from './resultsInParts.ts';
import type { LineIndent } from './resultsInParts.ts';

/** The list less its items' text, parsed, and the way from its offsets to the list's. */
export interface Frame {
  readonly text: string;
  readonly doc: Document;
  readonly toListOffset: (frameOffset: number) => number;
}

/**
 * Returns the edits (in the list's offsets) that make the list's results `before` less an earlier
 * run's, then `ours`; undefined when the frame does not read back that way (the caller then sets
 * the whole `results`, as a tree edit would).
 */
export function appendResultsEdits(
  frame: Frame,
  before: readonly unknown[],
  ours: readonly unknown[],
): Edit[] | undefined {
  const kept = before.filter((result) => !isOwnResult(result));
  const edits =
    ours.length > FULL_CHECK_UP_TO
      ? throughProbe(frame, before, kept, ours)
      : readBackWhole(frame, before, kept, ours);
  return edits?.map((edit) => ({
    start: frame.toListOffset(edit.start),
    end: frame.toListOffset(edit.end),
    // Not read here: a result's text is printed when the output reads it (resultsInParts.ts).
    get text() {
      return edit.text;
    },
  }));
}

/** Lists of up to this many results of ours are read back whole. */
const FULL_CHECK_UP_TO = 64;

/** The edit, checked by reading every result back. */
function readBackWhole(
  frame: Frame,
  before: readonly unknown[],
  kept: readonly unknown[],
  ours: readonly unknown[],
): Edit[] | undefined {
  const planned = planResultsEdit(frame, before, kept, ours);
  return planned && readsBack(frame.text, planned.edit, [...kept, ...ours])
    ? [planned.edit]
    : undefined;
}

/**
 * Reading every result back costs a parse of all of them (1.6 MB for 600 workloads: a third of
 * the run, issue #34 item 3). A long list is checked through a probe instead: the edit the same
 * code makes for our first result alone must read back, which holds the place and the
 * indentation; the items' own text is the yaml library's stringify, whose round trip the injection
 * tests hold (test/reliability/injection-safety.test.ts). The others are then written after the
 * first as it was written (resultsInParts.ts), else the edit is planned for all of them at once.
 */
function throughProbe(
  frame: Frame,
  before: readonly unknown[],
  kept: readonly unknown[],
  ours: readonly unknown[],
): Edit[] | undefined {
  const probe = planResultsEdit(frame, before, kept, ours.slice(0, 1));
  if (!probe || !readsBack(frame.text, probe.edit, [...kept, ...ours.slice(0, 1)]))
    return undefined;
  const parts = probe.printed && resultsInParts(probe.edit, ours, ...probe.printed);
  if (parts) return parts;
  const planned = planResultsEdit(frame, before, kept, ours);
  return planned?.edit.start === probe.edit.start && planned.edit.end === probe.edit.end
    ? [planned.edit]
    : undefined;
}

/**
 * The edit in the frame's offsets, unchecked (see appendResultsEdits), and how its results are
 * printed when they are block items on lines of their own (`- ` at a column, as resultsInParts
 * writes more of them): the list style and the indentation of their lines; undefined for flow
 * items or CRLF line breaks.
 */
function planResultsEdit(
  frame: Frame,
  before: readonly unknown[],
  kept: readonly unknown[],
  ours: readonly unknown[],
): { edit: Edit; printed?: readonly [indentSeq: boolean, lines: LineIndent] } | undefined {
  const root = frame.doc.contents;
  if (!isMap(root)) return undefined;
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'results');
  const node = pair?.value as Node | null | undefined;
  const crlf = frame.text.includes('\r\n');
  if (isSeq(node) && node.items.length > 0) {
    const earlier = before.flatMap((result, i) => (isOwnResult(result) ? [i] : []));
    let edit: Edit | undefined;
    if (earlier.length === 0)
      edit = node.flow ? appendFlow(frame.text, node, ours) : appendBlock(frame.text, node, ours);
    else if (!node.flow && kept.length + ours.length > 0)
      edit = replaceBlock(frame.text, node, earlier, ours);
    if (!edit) return undefined;
    if (crlf) return { edit: { ...edit, text: edit.text.replace(/\r?\n/g, '\r\n') } };
    return node.flow ? { edit } : { edit, printed: [APPENDED_INDENT_SEQ, 'every'] };
  }
  if (ours.length === 0) return undefined;
  // None yet (absent, `~`, `[]`): a new `results` field, as any field is set.
  const edit = planSplices(frame.text, frame.doc, [{ path: ['results'], value: ours }])?.[0];
  if (!edit) return undefined;
  // Written at column 0 (splice.ts Layout.block indents nothing more): as yaml prints a list.
  return crlf || root.flow || !root.range || columnOf(frame.text, root.range[0]) !== 0
    ? { edit }
    : { edit, printed: [indentSeqOf(frame.text, frame.doc), 'nonBlank'] };
}

/** Results appended to block results are printed with lists not indented under their keys. */
const APPENDED_INDENT_SEQ = false;

/** Block items after the last one, at the list's own indentation (`results:\n- …` or `results:\n  -
 * …`). */
function appendBlock(text: string, seq: YAMLSeq, ours: readonly unknown[]): Edit | undefined {
  if (!seq.range) return undefined;
  const column = columnOf(text, seq.range[0]);
  const block = blockText(ours, APPENDED_INDENT_SEQ).replace(/\n/g, `\n${' '.repeat(column)}`);
  const end = seq.range[1];
  if (text[end - 1] === '\n') return { start: end, end, text: `${' '.repeat(column)}${block}\n` };
  // After a comment that ends the last item's line, so the comment stays on its own line.
  const newline = text.indexOf('\n', end);
  let lineEnd = newline === -1 ? text.length : newline;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  if (!/^[ \t]*(?:#.*)?$/.test(text.slice(end, lineEnd))) return undefined;
  return { start: lineEnd, end: lineEnd, text: `\n${' '.repeat(column)}${block}` };
}

/**
 * The block list without the items at `earlier` (an earlier run's results), `ours` after the rest:
 * one edit from the first such item to where appendBlock inserts.
 */
function replaceBlock(
  text: string,
  seq: YAMLSeq,
  earlier: readonly number[],
  ours: readonly unknown[],
): Edit | undefined {
  const insert = ours.length > 0 ? appendBlock(text, seq, ours) : atEnd(seq);
  const regions = earlier.map((i) => itemRegion(text, seq.items[i] as Node | null));
  if (!insert || regions.some((region) => region === undefined)) return undefined;
  const start = regions[0]!.start;
  let kept = '';
  let at = start;
  for (const region of regions as Array<{ start: number; end: number }>) {
    if (region.start < at) return undefined;
    kept += text.slice(at, region.start);
    at = region.end;
  }
  if (insert.start < at) return undefined;
  return { start, end: insert.end, text: kept + text.slice(at, insert.start) + insert.text };
}

/** An empty insertion where appendBlock would insert: the end of the list. */
function atEnd(seq: YAMLSeq): Edit | undefined {
  const end = seq.range?.[1];
  return end === undefined ? undefined : { start: end, end, text: '' };
}

/**
 * A block list item's text: from the start of its `-` line to the end of its last line (a map
 * item's range ends after its line break); undefined when the `-` is not alone before it on its
 * line.
 */
function itemRegion(text: string, item: Node | null): { start: number; end: number } | undefined {
  if (!item?.range) return undefined;
  let dash = item.range[0] - 1;
  while (dash >= 0 && /[ \t\r\n]/.test(text[dash]!)) dash--;
  if (text[dash] !== '-') return undefined;
  const start = lineStartOf(text, dash);
  if (text.slice(start, dash).trim() !== '') return undefined;
  let end = item.range[1];
  if (text[end - 1] !== '\n') {
    const newline = text.indexOf('\n', end);
    end = newline === -1 ? text.length : newline + 1;
  }
  return { start, end };
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
