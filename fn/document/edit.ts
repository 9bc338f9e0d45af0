/** A text edit of a document and a field to set: the splicer's (splice.ts) and move.ts's words. */
import type { FieldPath } from '../core/fieldPath.ts';

/** Replaces `[start, end)` of the text with `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A field to set (`undefined`: to remove). */
export interface FieldSet {
  readonly path: FieldPath;
  readonly value: unknown;
}
