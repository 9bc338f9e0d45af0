/**
 * fn/explain/render/markdownText.ts (issue #33 item 3): text from the input renders as itself in
 * GitHub-flavoured Markdown, in a paragraph and in a table cell, with no element of its own; and
 * the hostile input's whole `explain --output markdown`, rendered with HTML allowed and loaded in
 * the real headless Chromium, has no script, image or link from the input, and no script ran.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { printable } from '../../fn/core/printable.ts';
import { markdownCode, markdownText } from '../../fn/explain/render/markdownText.ts';
import { chromium } from '../helpers/chromium.ts';
import { HOSTILE_FLAGS, hostileStream } from '../helpers/hostileNames.ts';
import { runInProcess } from './run.ts';

/**
 * GitHub's Markdown as markdown-it renders it: HTML allowed (the worst case: GitHub keeps `<img>`
 * and `<a>`), URLs with a scheme or `www.` autolinked (GFM 0.29 §6.9; GitHub links no bare
 * domain, so no fuzzy links).
 */
const markdown = new MarkdownIt({ html: true, linkify: true });
markdown.linkify.set({ fuzzyLink: false });

/** The text of rendered HTML that holds no element: entities decoded, zero-width spaces gone. */
function textOf(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '');
}

/** Pieces of Markdown, HTML and autolinks that hostile text is made of. */
const PIECE = fc.constantFrom(
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '![x](https://evil.example/x.png)',
  '[link](https://evil.example)',
  '[ref]: https://evil.example',
  '<https://evil.example>',
  'https://evil.example/x',
  '//evil.example/x',
  'www.evil.example',
  'a@evil.example',
  'mailto:a@evil.example',
  '@org/team',
  '#1',
  'owner/repo#2',
  '`code`',
  '``',
  '*em* _em_ **strong** ~~del~~',
  '| cell |',
  '\\',
  '&#64;',
  '&amp;',
  '&lt;b&gt;',
  '\n- item\n',
  '\r\n# heading\n',
  '\u001b[2J',
  '\u202e',
  ' ',
  'x',
  '!',
  '(',
  ')',
);
const HOSTILE_TEXT = fc.array(PIECE, { maxLength: 8 }).map((pieces) => pieces.join(''));

test('in a paragraph: the text rendered is the text, with no element', (t) => {
  fc.assert(
    fc.property(HOSTILE_TEXT, (text) => {
      const html = markdown.renderInline(`x ${markdownText(text)}`);
      return !/<[a-z]/i.test(html) && textOf(html) === `x ${printable(text)}`;
    }),
    { numRuns: 3000, seed: 33 },
  );
  t.pass();
});

test('in a table cell: one cell, its text the text, with no element', (t) => {
  fc.assert(
    fc.property(HOSTILE_TEXT, (text) => {
      const html = markdown.render(`| a | b |\n|---|---|\n| ${markdownText(text)} | end |\n`);
      const cells = [...html.matchAll(/<td>([^]*?)<\/td>/g)].map((m) => m[1]!);
      return (
        cells.length === 2 &&
        cells[1] === 'end' &&
        !/<[a-z]/i.test(cells[0]!) &&
        textOf(cells[0]!) === printable(text).trim()
      );
    }),
    { numRuns: 3000, seed: 33 },
  );
  t.pass();
});

test('in a heading: the text rendered is the text', (t) => {
  for (const text of ['Deployment shop/web #', 'a ###', '# x', '<b>x</b> @org'])
    t.is(textOf(markdown.render(`### ${markdownText(text)}`)), `<h3>${text}</h3>\n`);
});

test('mentions, references and autolinks get a zero-width space, printable text stays', (t) => {
  t.is(markdownText('@org/team #12'), '@&#8203;org/team \\#&#8203;12');
  t.is(markdownText('https://evil www.evil'), 'https:/&#8203;/evil www&#8203;.evil');
  t.is(
    markdownText('MINIMUM_DRAIN_DURATION (180 s): S = W'),
    'MINIMUM_DRAIN_DURATION (180 s): S = W',
  );
});

test('a code span holds any text: backticks in it, around it, and nothing is markup', (t) => {
  for (const text of ['a`b', '`x`', '``', 'file<img src=x>.yaml:3', 'a | b', '@org #1']) {
    const html = markdown.renderInline(markdownCode(text));
    t.regex(html, /^<code>[^<]*<\/code>$/, text);
    t.is(textOf(html.slice('<code>'.length, -'</code>'.length)), text);
  }
  t.is(markdownCode('x\u001b\ny'), '`x\\x1b\\ny`');
});

test('the hostile input in Chromium: no script, image or link from the input, and no script ran', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-markdown-'));
  const input = join(dir, 'hostile.yaml');
  writeFileSync(input, hostileStream());
  const out = await runInProcess(['explain', input, '-o', 'markdown', ...HOSTILE_FLAGS]);
  t.is(out.exitCode, 0);
  const page = (body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`;
  const dom = (html: string, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, page(html));
    const run = chromium(['--dump-dom', `file://${file}`]);
    t.is(run.status, 0, run.stderr);
    return run.stdout;
  };
  const rendered = dom(markdown.render(out.stdout), 'explain.html');
  t.regex(rendered, /pwned-title/, 'the names are there, as text');
  t.regex(rendered, /<table>/, 'the Markdown was rendered');
  t.false(rendered.includes('data-pwned'), 'no script ran');
  t.false(/<script|<img|<a[\s>]/.test(rendered), 'no script, image or link');
  // The same payload unescaped runs in this page: the check above can see it.
  const raw = dom(
    markdown.render(
      '<img src=x onerror="document.documentElement.dataset.pwned=1">\n\n' +
        '<script>document.documentElement.dataset.pwned=1</script>\n',
    ),
    'raw.html',
  );
  t.regex(raw, /data-pwned="1"/, 'a raw payload runs');
});
