/**
 * What reading a ResourceList gives (resourceList.ts), and the items in it that share anchors
 * (sharedAnchors.ts): a module of their own, so that the reader and the anchor check do not
 * import each other.
 */
import type { ManifestDocument } from '../document/manifest.ts';
import type { Resource } from '../workloads/resource.ts';
import type { Frame } from './appendResults.ts';
import type { Document, Node } from 'yaml';
import type { AliasUse } from '../yaml/aliases.ts';

/** One parsed item: where its text sits in the list and its document. */
export interface Item {
  readonly start: number;
  readonly end: number;
  readonly column: number;
  readonly doc: ManifestDocument;
  /** Aliases to anchors outside the item, written out in `doc` (see sharedAnchors.ts). */
  readonly expanded?: ReadonlyArray<{ readonly text: string; readonly alias: string }>;
}

/**
 * An item of a workload's kind, parsed only when the run reaches it (fn/engine/listPipeline.ts), so
 * that no more than one workload's tree is alive at a time (issue #34 item 7: every item's tree
 * kept until the output was written made a list's peak memory about 55× its size).
 */
export interface DeferredItem {
  /** 0-based position among the list's items. */
  readonly index: number;
  /**
   * Parses the item. Undefined when the laid-out reader cannot read it alone (bad YAML, something
   * like an alias): the list must then be read again, whole or eagerly, as readResourceList does.
   */
  open(): { readonly item: Item; readonly resources: readonly Resource[] } | undefined;
}

/** A read ResourceList. */
export interface ResourceListInput {
  readonly mode: 'resourceList';
  /** The list's text, or, when `bytes` is set, their latin1 view (resourceList.ts ListSource). */
  readonly text: string;
  /**
   * The UTF-8 bytes the list was read from, when it was read from bytes: offsets (items', the
   * frame's) are then byte offsets, and the output is made from the bytes.
   */
  readonly bytes?: Buffer;
  /** The items that were parsed (all of them, unless some were of kinds no mutator reads). */
  readonly items: readonly Item[];
  readonly resources: Resource[];
  /** With ReadListOptions.deferWorkloads: the workload items, parsed as the run reaches them. */
  readonly deferred?: readonly DeferredItem[];
  readonly functionConfig: unknown;
  /** Results already in the input, which ours are appended to. */
  readonly results: unknown[];
  /** The list without its items' text, where results are appended (appendResults.ts). */
  readonly frame: Frame;
  /**
   * Items that share anchors with others, when any do: their edits are checked on the whole list.
   */
  readonly shared?: SharedItems;
}

/** Which items share anchors, and the list they were read from. */
export interface SharedItems {
  /** 0-based indexes of items with an alias to an anchor outside them, or an anchor an alias
   * outside them refers to. */
  readonly items: ReadonlySet<number>;
  /** Per item: its aliases to anchors outside it, in order. */
  readonly external: ReadonlyMap<number, readonly AliasUse[]>;
  readonly doc: Document;
  readonly itemNodes: ReadonlyArray<Node | null>;
}
