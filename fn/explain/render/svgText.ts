/**
 * Text in the explain picture (issue #29 item 7): SVG does not wrap, so every text the picture
 * shows in full (a summary, a verdict, an event, a window) is broken into lines here, by an
 * estimate of each character's width that errs wide, so that no line passes the picture's edge.
 * test/explain/svg-fit.test.ts measures the result in a real browser.
 */
import { wrapWords } from './wrap.ts';
import { xmlText as escape } from './xmlText.ts';

/**
 * Pixels a character takes at a font size, over-estimated: DejaVu Sans (the picture's first
 * font) averages about 0.55 em, and wide letters (m, W, —) reach 0.9 em; 0.62 em keeps real
 * text inside the estimate with room to spare.
 */
const charWidth = (fontSize: number): number => fontSize * 0.62;

/** Returns the estimated width in pixels of `text` at `fontSize`. */
export function textWidth(text: string, fontSize: number): number {
  return [...text].length * charWidth(fontSize);
}

/** Returns `text` broken at spaces into lines that fit `width` pixels at `fontSize`. */
export function fitLines(text: string, width: number, fontSize: number): string[] {
  return wrapWords(text, Math.max(8, Math.floor(width / charWidth(fontSize))));
}

/** Line height for a font size. */
export const lineHeight = (fontSize: number): number => Math.round(fontSize * 1.35);

/** `<text>` elements for lines starting at (x, y), one line per element. */
export function textLines(
  lines: readonly string[],
  { x, y }: { readonly x: number; readonly y: number },
  fontSize: number,
  attributes = '',
): string[] {
  return lines.map(
    (line, i) =>
      `<text x="${x}" y="${y + i * lineHeight(fontSize)}" font-size="${fontSize}"` +
      `${attributes ? ` ${attributes}` : ''}>${escape(line)}</text>`,
  );
}
