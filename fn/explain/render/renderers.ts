/**
 * `explain`'s output formats, one renderer each (issue #32 item 4): a new format is one entry
 * here, and the command's choices are this table's keys. Each renderer loads its module when it
 * runs, so a run pays for one format's code only (start-up, issue #9).
 */
import type { Explanation } from '../explain.ts';

/** What a renderer may use besides the explanation. */
export interface RenderContext {
  /** ANSI colour (text). */
  readonly colour: boolean;
  /** One line per workload (text, markdown). */
  readonly summary: boolean;
  /** The terminal's width, when stdout is one (text). */
  readonly width?: number;
  /** The files read and the tool's version (html). */
  readonly files: readonly string[];
  readonly version: string;
}

type Renderer = (explanation: Explanation, context: RenderContext) => Promise<string>;

const width = (context: RenderContext) =>
  context.width === undefined ? {} : { width: context.width };

export const EXPLAIN_RENDERERS = {
  text: async (explanation, context) =>
    context.summary
      ? (await import('./summary.ts')).renderSummary(explanation, width(context))
      : (await import('./text.ts')).renderText(explanation, {
          colour: context.colour,
          ...width(context),
        }),
  json: async (explanation) => (await import('./json.ts')).renderJson(explanation),
  markdown: async (explanation, context) =>
    (await import('./markdown.ts')).renderMarkdown(explanation, { summary: context.summary }),
  svg: async (explanation) => (await import('./svg.ts')).renderSvg(explanation),
  html: async (explanation, context) =>
    (await import('./html.ts')).renderHtml(explanation, {
      files: context.files,
      version: context.version,
    }),
} as const satisfies Record<string, Renderer>;

/** An `explain --output` format. */
export type ExplainFormat = keyof typeof EXPLAIN_RENDERERS;

/** The formats `--summary` has a view in. */
export const SUMMARY_FORMATS: readonly ExplainFormat[] = ['text', 'markdown'];
