/**
 * Block YAML of a value that holds a long list, printed one item at a time. yaml's stringify
 * builds a node for every value first: the KRM results of 2,400 workloads (15,000 results, 7.6 MB
 * of YAML) made a tree of 60 MB, a third of that run's peak memory (issue #34 item 7).
 *
 * A block sequence prints each item on its own, `- ` and the item's lines, one after the other;
 * a mapping prints each pair on its own, one after the other: so printing `[a, b]` is printing
 * `[a]` and `[b]` and joining their lines, and `{k: [a, b]}` is `{k: [a]}` followed by `[b]`'s
 * lines indented as a sequence under a key is (two spaces with indentSeq, none without; blank
 * lines stay empty). This
 * holds for plain data, which is all kube-graceful prints (no anchors: aliasDuplicateObjects is
 * off, and no comments): test/yaml/long-lists.test.ts holds it against a whole stringify.
 */

/** Lists shorter than this are printed whole: one tree of them is small. */
const LONG = 64;

/** Returns true for a list long enough to print one item at a time. */
function isLong(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length >= LONG;
}

/**
 * Returns `value`'s block text as `print` makes it (without the final line break), printing a long
 * list, at the top or as the value of a mapping's one key, one item at a time; undefined when
 * the value holds no such list (the caller then prints it whole).
 */
export function longListText(
  value: unknown,
  indentSeq: boolean,
  print: (value: unknown) => string,
): string | undefined {
  if (isLong(value)) return value.map((item) => print([item])).join('\n');
  // A mapping of one key: a new field (`results` added to a ResourceList) as splice.ts prints it.
  if (!isPlainMapping(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length !== 1) return undefined;
  const [key, list] = entries[0]!;
  if (!isLong(list)) return undefined;
  const under = indentSeq ? '  ' : '';
  // yaml indents no blank line (a block scalar's empty line is empty at any depth).
  const rest = list
    .slice(1)
    .map((item) => under + print([item]).replace(/\n(?!\n|$)/g, `\n${under}`));
  return [print({ [key]: list.slice(0, 1) }), ...rest].join('\n');
}

/** A mapping as a plain object: its entries are its pairs, in order. */
function isPlainMapping(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.getOwnPropertySymbols(value).length === 0
  );
}
