/**
 * One document of the stream: its source text, parsed on demand, and edits that keep every byte
 * they do not own. A document nobody edits is written back exactly as it came in.
 */
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node, YAMLError, YAMLMap, YAMLSeq } from 'yaml';
import { KubeGracefulError } from '../core/errors.ts';
import { buildAt, dataPathOf, formatPath, getAt, setAt } from '../core/fieldPath.ts';
import type { FieldPath, PathSegment } from '../core/fieldPath.ts';
import { checkEditsLocally } from './localCheck.ts';
import { applySplices, planInsertPair, planReplaceNode, planSplices, spliceSet } from './splice.ts';
import type { Edit, FieldSet } from './edit.ts';
import { aliasUsers, hasAliases, lineOf, sharedOnPath } from './shared.ts';
import {
  parseOptions,
  printableParseOptions,
  stringifyOptions,
  toJsOptions,
  MAX_NESTING_DEPTH,
} from '../yaml/options.ts';
import { resourceHint } from './prescan.ts';
import { aliasUses, firstUndefinedAlias, undefinedAliasMessage } from '../yaml/aliases.ts';
import { linesBefore } from '../core/positions.ts';
import { BOM, bomAtLineStart, documentBomAt } from './bom.ts';

/**
 * New nodes never use anchors/aliases for an object used twice (kpt rejects an alias where it
 * expects a mapping).
 */
const NO_ALIASES = { aliasDuplicateObjects: false } as const;

/** Each step gives one place its own copy; a document with more shared places is not a manifest. */
const MAX_UNSHARE_STEPS = 1000;

/** Where a document's text sits in the input, for messages. */
export interface SourcePlace {
  /** 1-based index among the documents (or ResourceList items). */
  readonly document: number;
  /** 1-based line of the input at which the text starts; 0 when the text is not from the input. */
  readonly line: number;
}

/**
 * A document of the stream with lazy parsing and verified, minimal edits.
 *
 * Edits wait until the text or the syntax tree is next read, then are made together and checked
 * together (issue #9: a re-parse per edit was a third of a run). Reads of `data` see every edit at
 * once.
 */
export class ManifestDocument {
  /** The text as read and edited: without the byte-order mark that opens the document (bom.ts). */
  #text: string;
  /**
   * What comes before that mark (the `---` line), when the document has one: it is put back there,
   * so an unchanged document is written as it came and a changed one keeps it too.
   */
  #beforeBom: string | undefined;
  #doc: Document | undefined;
  #data: unknown;
  #changed = false;
  /** Fields to set, waiting for the document's edits to be made in one go. */
  #pending: FieldSet[] = [];
  /** The data with the pending edits made (what the text must parse to once they are). */
  #expected: unknown;

  constructor(
    text: string,
    readonly place: SourcePlace,
  ) {
    const bom = documentBomAt(text);
    if (bom === undefined) {
      this.#text = text;
    } else {
      this.#beforeBom = text.slice(0, bom);
      this.#text = this.#beforeBom + text.slice(bom + BOM.length);
    }
  }

  /** Returns the current text: the source, or the source with the edits made so far. */
  get text(): string {
    this.flush();
    const before = this.#beforeBom;
    // A tree edit may print what precedes the content anew (see rewrite): the mark then goes with
    // it, as it would from any YAML printer.
    if (before === undefined || !this.#text.startsWith(before)) return this.#text;
    return before + BOM + this.#text.slice(before.length);
  }

  /**
   * Returns the 1-based input line of an offset in the syntax tree's text (`document`), which
   * has no mark that opens the document.
   */
  lineAt(offset: number): number {
    this.flush();
    return this.place.line + linesBefore(this.#text, offset);
  }

  /** Returns true once an edit has changed the text. */
  get changed(): boolean {
    return this.#changed || this.#pending.length > 0;
  }

  /**
   * Makes the pending edits and lets go of the syntax tree and the data, keeping the text and
   * whether it changed: a run that reads one document at a time keeps of each only what it writes
   * (a tree is about 20× its text, issue #16). Read again, the text is parsed anew.
   */
  release(): void {
    this.flush();
    this.#doc = undefined;
    this.#data = undefined;
  }

  /** Returns the parsed document; throws a KubeGracefulError that names the line on bad YAML. */
  get document(): Document {
    this.flush();
    this.#doc ??= this.parse(this.#text);
    return this.#doc;
  }

  /** Returns the document as plain data (ints beyond 2^53 stay bigint), with every edit made. */
  get data(): unknown {
    if (this.#pending.length > 0) return this.#expected;
    if (this.#data === undefined) {
      try {
        this.#data = toData(this.document);
      } catch (error) {
        throw this.translate(error);
      }
    }
    return this.#data;
  }

  /**
   * Sets `value` at `path`. The edit is made when the text or tree is next read (see flush), and
   * its errors (a path through an alias) are thrown then; `data` has it at once.
   */
  set(path: FieldPath, value: unknown): void {
    // Removing what is not there is no edit (`undefined` removes: fieldPath.ts setAt).
    if (value === undefined && getAt(this.data, path) === undefined) return;
    this.#expected = setAt(this.data, path, value);
    this.#pending.push({ path, value });
  }

  /**
   * Makes the pending edits. First all as text splices planned on one parse, checked: the result
   * must read as the data with exactly these fields set. The check re-parses only the entries that
   * hold the edits when that is sure to be enough (localCheck.ts), else the whole document. When it
   * fails (a shape the splicer does not handle, edits that overlap or create the same map), they
   * are made one at a time, each checked by a whole re-parse, each falling back to a tree edit
   * (see setNow).
   */
  private flush(): void {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    const expected = this.#expected;
    this.#pending = [];
    this.#expected = undefined;
    const doc = (this.#doc ??= this.parse(this.#text));
    if (hasAliases(this.#text, doc) && this.flushShared(doc, pending, expected)) return;
    this.flushOwn(doc, pending, expected);
  }

  /** Makes edits none of which goes into or through a node that another part shares. */
  private flushOwn(doc: Document, pending: readonly FieldSet[], expected: unknown): void {
    const edits = planSplices(this.#text, doc, pending);
    if (edits) {
      const spliced = applySplices(this.#text, edits);
      const setPaths = pending.map((set) => dataPathOf(expected, set.path));
      if (
        setPaths.every((path) => path !== undefined) &&
        checkEditsLocally(doc, { source: this.#text, edits, spliced }, { expected, setPaths })
      ) {
        // The tree of the new text is parsed only if someone asks for it (see `document`).
        this.commit(spliced, undefined, expected);
        return;
      }
      if (this.accept(spliced, expected)) return;
    }
    for (const { path, value } of pending) this.setNow(path, value);
  }

  /**
   * Makes edits when some go into or through shared nodes (anchors, aliases, merge keys; see
   * shared.ts); returns false when none does. First the sharing is kept: only the fields outside
   * aliases and merges are edited (the anchors among them), which is right when every user of an
   * anchor reads the same change, as two workloads that share a pod template do when both are
   * patched alike. Otherwise each edited place first gets its own copy of what it shares, so that
   * no other user of the anchor reads the change (unshare), and the edits are made on that.
   */
  private flushShared(doc: Document, pending: readonly FieldSet[], expected: unknown): boolean {
    const users = aliasUsers(doc);
    const shared = pending.map((set) => sharedOnPath(doc, set.path, users));
    if (shared.every((on) => !on.alias && !on.merged && on.anchored.length === 0)) return false;
    const own = pending.filter((_, i) => !shared[i]!.alias && !shared[i]!.merged);
    const edits = own.length > 0 ? planSplices(this.#text, doc, own) : undefined;
    if (edits && this.accept(applySplices(this.#text, edits), expected)) return true;
    this.unshare(pending);
    this.flushOwn(this.document, pending, expected);
    return true;
  }

  /**
   * Rewrites the document, without changing its data, until no field to set goes into or through
   * a shared node: an alias on the way is replaced by a copy of what it refers to; a key on the
   * way that a merge gives becomes the map's own key, a copy of the merged value; the other users
   * of an anchored node on the way are replaced by copies of it. Each step is checked by a whole
   * re-parse. Refuses (exit 2) when a step cannot be made as text.
   */
  private unshare(pending: readonly FieldSet[]): void {
    const before = this.data;
    for (let step = 0; step < MAX_UNSHARE_STEPS; step++) {
      const doc = this.document;
      const users = aliasUsers(doc);
      let found: { set: FieldSet; node: Node; edit: Edit | undefined; what: string } | undefined;
      for (const set of pending) {
        const on = sharedOnPath(doc, set.path, users);
        if (on.alias) {
          found = {
            set,
            node: on.alias,
            edit: planReplaceNode(
              this.#text,
              doc,
              on.alias,
              on.alias.resolve(doc)?.toJS(doc, toJsOptions()),
            ),
            what: `the alias *${on.alias.source}`,
          };
        } else if (on.merged) {
          const { map, key } = on.merged;
          const value = (map.toJS(doc, toJsOptions()) as Record<string, unknown>)[key];
          found = {
            set,
            node: map,
            edit: planInsertPair({ source: this.#text, doc }, map, key, value),
            what: `the key ${JSON.stringify(key)}, which a merge key (<<) gives the map`,
          };
        } else if (on.anchored.length > 0) {
          const anchored = on.anchored[0]!;
          const alias = users.get(anchored)![0]!;
          found = {
            set,
            node: alias,
            edit: planReplaceNode(this.#text, doc, alias, anchored.toJS(doc, toJsOptions())),
            what: `the anchor &${alias.source}, which the alias *${alias.source} shares`,
          };
        }
        if (found) break;
      }
      if (!found) return;
      const text = found.edit && applySplices(this.#text, [found.edit]);
      if (text === undefined || !this.accept(text, before))
        throw this.sharedError(found.set.path, found.node, found.what);
    }
  }

  private sharedError(path: FieldPath, node: Node, what: string): KubeGracefulError {
    const line = node.range
      ? this.place.line + lineOf(this.#text, node.range[0]) - 1
      : this.place.line;
    return new KubeGracefulError(
      'E_INPUT',
      `cannot set ${formatPath(path)}: the way there goes through ${what}, ` +
        `and kube-graceful could not give this place its own copy without changing other fields`,
      { ...this.place, ...resourceHint(this.#text), line, field: formatPath(path) },
      'Write the fields out instead of the anchor, ' +
        'alias or merge key in the template that renders this document.',
    );
  }

  /**
   * Sets `value` at `path` now. The text edit is checked by re-parsing: the result must equal the
   * old data with exactly this field set, else the edit is redone on the syntax tree (which may
   * re-indent this one document) and checked again.
   */
  private setNow(path: FieldPath, value: unknown): void {
    const expected = setAt(this.data, path, value);
    const spliced = spliceSet(this.#text, this.document, path, value);
    if (spliced !== undefined && this.accept(spliced, expected)) return;
    const rewritten = this.rewrite(path, value);
    if (!this.accept(rewritten, expected)) {
      throw new KubeGracefulError(
        'E_INTERNAL',
        `could not set ${JSON.stringify(path)} without changing other fields`,
        this.place,
      );
    }
  }

  private accept(text: string, expected: unknown): boolean {
    let doc: Document;
    let data: unknown;
    try {
      doc = this.parse(text);
      data = toData(doc);
    } catch {
      return false;
    }
    if (!isDeepStrictEqual(data, expected)) return false;
    this.commit(text, doc, data);
    return true;
  }

  private commit(text: string, doc: Document | undefined, data: unknown): void {
    this.#text = text;
    this.#doc = doc;
    this.#data = data;
    this.#changed = true;
  }

  /** The tree edit: create what is missing along the path, set the value, print the document. */
  private rewrite(path: FieldPath, value: unknown): string {
    const doc = this.parse(this.#text, printableParseOptions());
    let parent: Node | null = doc.contents;
    const setChild = (holder: Node | Document, key: unknown, child: unknown) => {
      (holder as { set(k: unknown, v: unknown): void }).set(key, doc.createNode(child, NO_ALIASES));
    };
    if (path.length === 0)
      throw new KubeGracefulError('E_INTERNAL', 'cannot replace a whole document', this.place);
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const rest = path.slice(i + 1);
      const last = i === path.length - 1;
      if (last && value === undefined && (isMap(parent) || isSeq(parent))) {
        removeChild(parent, segment); // `undefined` removes (fieldPath.ts setAt)
        break;
      }
      if (isMap(parent) && typeof segment === 'string') {
        const child = parent.get(segment, true) as Node | undefined;
        if (last || child === undefined || (isScalar(child) && child.value === null)) {
          setChild(parent, segment, last ? value : buildAt(rest, value));
          break;
        }
        parent = child;
      } else if (isSeq(parent) && typeof segment === 'object') {
        const index = parent.items.findIndex(
          (it) =>
            isMap(it) &&
            String((it.get(segment.key, true) as { value?: unknown })?.value) === segment.equals,
        );
        if (index === -1) {
          parent.items.push(
            doc.createNode(setAt({ [segment.key]: segment.equals }, rest, value), NO_ALIASES),
          );
          break;
        }
        if (last) {
          parent.items[index] = doc.createNode(value, NO_ALIASES);
          break;
        }
        parent = parent.items[index] as Node;
      } else if (isSeq(parent) && typeof segment === 'number') {
        if (last) {
          parent.items[segment] = doc.createNode(value, NO_ALIASES);
          break;
        }
        parent = parent.items[segment] as Node;
      } else if (isAlias(parent)) {
        // Editing through an alias would edit its anchor too: every field that shares the node.
        const line = parent.range
          ? this.place.line + linesBefore(this.#text, parent.range[0])
          : this.place.line;
        throw new KubeGracefulError(
          'E_INPUT',
          `cannot set ${formatPath(path)}: ` +
            `the way there goes through the alias *${parent.source}, ` +
            `a node shared with the anchor &${parent.source}; ` +
            `kube-graceful does not edit shared nodes`,
          { ...this.place, ...resourceHint(this.#text), line, field: formatPath(path) },
          'Write the fields out instead of the alias in the template that renders this document.',
        );
      } else {
        throw new KubeGracefulError(
          'E_INTERNAL',
          `cannot set ${JSON.stringify(path)}: unexpected node on the way`,
          this.place,
        );
      }
    }
    return doc.toString(stringifyOptions());
  }

  private parse(text: string, options = parseOptions()): Document {
    let doc: Document;
    try {
      doc = parseDocument(text, options);
    } catch (error) {
      throw this.translate(error);
    }
    const problem = doc.errors[0];
    if (problem) throw this.yamlError(problem);
    const bom = text.includes(BOM) ? bomAtLineStart(text) : undefined;
    if (bom !== undefined) {
      throw new KubeGracefulError(
        'E_PARSE',
        'a byte-order mark (U+FEFF) starts a line inside the document, where YAML readers ' +
          'disagree about it (only one right after `---` is read as kustomize reads it)',
        { ...this.place, ...resourceHint(text), line: this.place.line + linesBefore(text, bom) },
        'Remove the byte-order mark; files joined into one stream should be saved without one.',
      );
    }
    const deep = tooDeep(doc.contents, MAX_NESTING_DEPTH);
    if (deep) {
      throw new KubeGracefulError(
        'E_TOO_DEEP',
        `nesting deeper than ${MAX_NESTING_DEPTH} levels`,
        {
          ...this.place,
          ...resourceHint(text),
          ...(deep.offset === undefined
            ? {}
            : { line: this.place.line + linesBefore(text, deep.offset) }),
        },
        'Kubernetes objects are never this deep; check how the input was generated.',
      );
    }
    return doc;
  }

  private yamlError(problem: YAMLError): KubeGracefulError {
    const [line, column] = problem.linePos?.[0]
      ? [problem.linePos[0].line, problem.linePos[0].col]
      : [undefined, undefined];
    const at = {
      ...this.place,
      ...resourceHint(this.#text),
      line: line === undefined ? undefined : this.place.line + line - 1,
      column,
    };
    const message = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    if (message.includes('Maximum call stack'))
      return new KubeGracefulError(
        'E_TOO_DEEP',
        'nesting too deep to read',
        at,
        'Kubernetes objects are never this deep; check how the input was generated.',
      );
    if (problem.code === 'DUPLICATE_KEY')
      return new KubeGracefulError(
        'E_DUPLICATE_KEY',
        message,
        at,
        'Remove one of the two keys; Kubernetes would silently keep only one.',
      );
    return new KubeGracefulError(
      'E_PARSE',
      message,
      at,
      'Fix the YAML at that line (run the chart with `helm template` and look at the document).',
    );
  }

  private translate(error: unknown): KubeGracefulError {
    if (error instanceof KubeGracefulError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const place = { ...this.place, ...resourceHint(this.#text) };
    const undefinedAlias =
      this.#doc && message.startsWith('Unresolved alias')
        ? firstUndefinedAlias(this.#doc)
        : undefined;
    if (undefinedAlias) {
      // Not an alias bomb: an alias with no anchor before it (in this document: anchors never reach
      // across `---`).
      const { message: what, hint } = undefinedAliasMessage(undefinedAlias.source);
      const line = undefinedAlias.range
        ? this.place.line + linesBefore(this.#text, undefinedAlias.range[0])
        : undefined;
      return new KubeGracefulError(
        'E_PARSE',
        what,
        { ...place, ...(line !== undefined ? { line } : {}) },
        hint,
      );
    }
    if (/alias/i.test(message)) {
      // The line of the document's first alias: where the expansion starts.
      const first = this.#doc ? aliasUses(this.#doc)[0]?.alias.range?.[0] : undefined;
      return new KubeGracefulError(
        'E_ALIAS_BOMB',
        'too many alias expansions (possible "billion laughs" input)',
        first === undefined
          ? place
          : { ...place, line: this.place.line + linesBefore(this.#text, first) },
        'Expand the anchors in the input, or remove the aliases.',
      );
    }
    if (error instanceof RangeError)
      return new KubeGracefulError(
        'E_TOO_DEEP',
        'nesting too deep to read',
        place,
        'Kubernetes objects are never this deep; check how the input was generated.',
      );
    return new KubeGracefulError('E_PARSE', message, place);
  }
}

/**
 * Plain data of a document. Ints beyond 2^53 stay bigint so that they keep every digit through a
 * tree edit; the others are numbers already (see safeIntResolve in yaml/options.ts).
 */
/** Removes the key, index or keyed item `segment` from a tree node, if it is there. */
function removeChild(parent: YAMLMap | YAMLSeq, segment: PathSegment): void {
  if (isMap(parent)) {
    if (typeof segment === 'string') parent.delete(segment);
    return;
  }
  const index =
    typeof segment === 'number'
      ? segment
      : typeof segment === 'object'
        ? parent.items.findIndex(
            (it) =>
              isMap(it) &&
              String((it.get(segment.key, true) as { value?: unknown })?.value) === segment.equals,
          )
        : -1;
  if (index >= 0 && index < parent.items.length) parent.items.splice(index, 1);
}

export function toData(doc: Document): unknown {
  return doc.toJS(toJsOptions()) ?? null;
}

/** Depth of the deepest collection, counted without recursion so hostile input cannot overflow. */
/**
 * Returns the first collection nested deeper than `limit` (its start offset, to name its line),
 * or undefined when none is.
 */
function tooDeep(root: unknown, limit: number): { readonly offset?: number } | undefined {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > limit) return { offset: node.range?.[0] };
    if (isMap(node)) for (const pair of node.items) stack.push([pair.value, depth + 1]);
    else for (const item of node.items) stack.push([item, depth + 1]);
  }
  return undefined;
}
