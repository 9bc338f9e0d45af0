/**
 * Text from the input as inert GitHub-flavoured Markdown (issue #33 item 3): `explain --output
 * markdown` goes into pull-request comments, where a name is read by people who did not write it.
 * Whatever the text holds, it renders as that text: no HTML (GitHub keeps `<img>`, `<a>` and
 * `<details>` from raw HTML; a renderer with HTML allowed runs `<script>`), no link, image or
 * autolink, no @mention (it notifies a user or a whole team) or #reference, no code span or
 * strikethrough that swallows the markup around it, no table cell split, no line break.
 *
 * - control characters first become visible escapes (fn/core/printable.ts), so nothing is left
 *   to break a line or a table row;
 * - `\`, `` ` ``, `*`, `~`, `[`, `]`, `|`, `#` and `_` but within a word take a backslash
 *   (CommonMark 0.31 §2.4: any ASCII punctuation may be escaped; GFM 0.29 §4.10 takes `\|` as a
 *   pipe inside a table cell);
 * - `&`, `<` and `>` become entities: no tag, no `<url>` autolink, and no entity of the input's
 *   own (`&#64;`) turns back into a character;
 * - a zero-width space (`&#8203;`) goes after `@` and `#` before a letter or digit, between the
 *   slashes of `//` and after `www`: GitHub finds mentions and issue references in the rendered
 *   text, after Markdown (so no backslash stops them), and autolinks `http://`, `https://` and
 *   `www.` (GFM 0.29 §6.9, extended autolinks) and e-mail addresses; linkify-it, markdown-it's
 *   autolinker, also takes `//host` for a link. Renovate does the same for the release notes it
 *   quotes (renovatebot/renovate lib/util/markdown.ts, `sanitizeMarkdown`).
 */
import { printable } from '../../core/printable.ts';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

const ZERO_WIDTH_SPACE = '&#8203;';

/** Returns `text` as Markdown that renders as exactly that text, on one line. */
export function markdownText(text: string): string {
  return inert(
    printable(text)
      .replace(/[\\`*~[\]|#]/g, '\\$&')
      // `_` within a word emphasises nothing (CommonMark §6.2: no flanking run opens there):
      // MINIMUM_DRAIN_DURATION stays as it is written.
      .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_'),
  );
}

/**
 * Returns `text` for the inside of an HTML block (`<summary>`), where Markdown is not parsed and
 * a backslash would show: entities and zero-width spaces only.
 */
export function markdownHtmlText(text: string): string {
  return inert(printable(text));
}

function inert(text: string): string {
  return text
    .replace(/[&<>]/g, (char) => ENTITIES[char]!)
    .replace(/[@#](?=[\p{L}\p{N}])|\/(?=\/)|\bwww(?=\.)/giu, `$&${ZERO_WIDTH_SPACE}`);
}

/**
 * Returns `text` as a Markdown code span (outside a table: a `|` there would need a backslash,
 * which a code span shows). The fence is one backtick longer than the longest run in the text
 * (CommonMark §6.1), so no backtick of the text closes it; within it nothing is markup.
 */
export function markdownCode(text: string): string {
  const shown = printable(text);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space, which CommonMark strips again.
  const pad = /^`|`$/.test(shown) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}
