// A mutator's doc page (docs/mutators/<id>.md) as the registry test reads it and
// `npm run docs:mutators` writes it: its sections, its Settings table (generated from the
// mutator's settings slice) and its runnable example.
import { sliceSettingsMarkdown } from '../fn/config/reference.ts';

/**
 * The sections every mutator page has, in this order (docs/ARCHITECTURE.md, "A mutator's doc
 * page"); a page may add sections of its own between them.
 */
export const PAGE_SECTIONS = [
  'Which pods',
  'The numbers',
  'What it writes',
  'Never',
  'Versions',
  'Settings',
  'Findings',
  'Example',
  'Sources',
] as const;

const BEGIN =
  "<!-- Generated from the mutator's settings slice by `npm run docs:mutators`; do not edit. -->";
const END = '<!-- End of the generated settings. -->';

/** Returns the page with its generated settings table brought up to date. */
export function withSettingsTable(page: string, sliceKey: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the page has no "${BEGIN}" … "${END}" block`);
  return (
    page.slice(0, start + BEGIN.length) + `\n${sliceSettingsMarkdown(sliceKey)}\n` + page.slice(end)
  );
}

/** Returns the page's level-2 section titles, in order. */
export function sectionTitles(page: string): string[] {
  return [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
}

/** Returns the text of the section titled `title` (to the next level-2 title). */
export function section(page: string, title: string): string {
  const start = page.search(new RegExp(`^## ${title}$`, 'm'));
  if (start < 0) return '';
  const rest = page.slice(start + title.length + 4);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

/**
 * The example a page's Example section runs: its first `sh` block, one `kube-graceful` command
 * on a file of the repository, and the first `diff` block after it, an excerpt of what the
 * command prints (its lines in order).
 */
export interface RunnableExample {
  readonly args: string[];
  readonly input: string;
  readonly excerpt: string[];
}

/** Returns the page's runnable example, or undefined where its Example section has none. */
export function runnableExample(page: string): RunnableExample | undefined {
  const example = section(page, 'Example');
  const command = /```sh\n(kube-graceful(?: [^\n<|]+)?) < (\S+)\n```/.exec(example);
  if (!command) return undefined;
  const after = example.slice(command.index + command[0].length);
  const excerpt = /```diff\n([\s\S]*?)\n```/.exec(after);
  return {
    args: command[1]!.split(' ').slice(1),
    input: command[2]!,
    excerpt: excerpt ? excerpt[1]!.split('\n') : [],
  };
}
