/**
 * The notes under each panel of the explain picture (issue #29 item 7): every event in full, by
 * the number its dot carries on its lane, then every window with its mark and span. The lanes stay
 * readable however many things happen at once, and nothing is cut with "…".
 */
import type { Timeline } from '../../explanation/timeline.ts';
import { fitLines, lineHeight, textLines, textWidth } from './svgText.ts';
import { verdictMark } from './verdictMark.ts';
import { xmlText as escape } from './xmlText.ts';

const FONT = 11;
const LEFT = 16;

/** One note: its lead (an event's number, a window's mark and span) and its words. */
interface Note {
  readonly lead: string;
  readonly text: string;
  /** The style of the lead: the outcome of a window, `unknown` for what is not modelled. */
  readonly tone?: string;
}

/** Returns the notes of a timeline: its events by number, then its windows. */
function notesOf(timeline: Timeline): Note[] {
  return [
    ...timeline.events.map((event, i) => ({
      lead: String(i + 1),
      text: `${event.at === null ? 'never' : `${event.at} s`}  ${event.actor}: ${event.text}`,
      ...(event.unknown ? { tone: 'unknown' } : {}),
    })),
    ...timeline.windows.map((window) => {
      const shown = window.unknown ? 'unknown' : window.outcome;
      const span = window.to === null ? `from ${window.from} s` : `${window.from}–${window.to} s`;
      return { lead: `${verdictMark(shown)} ${span}`, text: window.text, tone: shown };
    }),
  ];
}

/** Draws the notes from `top` in a picture `width` wide; returns the elements and their height. */
export function drawNotes(
  timeline: Timeline,
  top: number,
  width: number,
): { svg: string[]; height: number } {
  const notes = notesOf(timeline);
  const leadWidth = Math.max(0, ...notes.map((n) => textWidth(n.lead, FONT))) + 10;
  const textX = LEFT + leadWidth;
  const svg: string[] = ['<g class="notes">'];
  let y = top + lineHeight(FONT);
  for (const note of notes) {
    const lines = fitLines(note.text, width - textX - LEFT, FONT);
    svg.push(
      `<text x="${LEFT}" y="${y}" font-size="${FONT}" font-weight="bold"` +
        `${note.tone ? ` class="${note.tone}"` : ''}>${escape(note.lead)}</text>`,
      ...textLines(lines, { x: textX, y }, FONT),
    );
    y += lines.length * lineHeight(FONT) + 2;
  }
  svg.push('</g>');
  return { svg, height: y - top };
}
