/** A text edit of a document and a field to set: the splicer's (splice.ts) and move.ts's words. */
import type { Document } from 'yaml';
import type { FieldPath } from '../core/fieldPath.ts';

/** A document's text and its parse, whose ranges are offsets in that text. */
export interface ParsedText {
  readonly source: string;
  readonly doc: Document;
}

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
