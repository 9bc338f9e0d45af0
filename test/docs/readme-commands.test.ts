/**
 * The README's commands run as written (issue #17 item 1).
 *
 * - Every `console` block is run: each `$ kube-graceful …` line with the bundled CLI from the
 *   repository root, its output compared line by line with what the README shows (`…` stands for
 *   text left out; shown lines must appear in order), and `$ echo $?` against the exit code.
 * - `sh` blocks that name the project's own files (`npm run X`, `npx ava PATH`, `bash PATH`,
 *   `sh PATH`) must name scripts and files that exist. Commands on a user's own chart or package
 *   (`helm upgrade … istio/gateway`, `kpt fn eval ./package`) are templates: each path they stand
 *   for is run end to end by examples/<path>/run.sh (test/integration/examples.test.ts).
 * - `npm run example` (examples/quickstart/show.sh) runs and shows why, then what changes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { cliPath, ROOT } from '../helpers/fixtures.ts';

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  'docs/performance.md',
  'docs/reliability.md',
  'examples/quickstart/README.md',
  'docs/integrations/flux.md',
  'docs/integrations/argocd.md',
  'docs/integrations/container.md',
  'docs/integrations/kpt.md',
  'docs/install.md',
  'docs/usage.md',
  'docs/integrations/helm.md',
  'docs/integrations/kustomize.md',
];

interface Block {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly lines: readonly string[];
}

function blocks(file: string): Block[] {
  const found: Block[] = [];
  let open: { lang: string; line: number; lines: string[] } | undefined;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const fence = /^```(\w*)\s*$/.exec(text);
      if (fence && !open) open = { lang: fence[1] ?? '', line: index + 1, lines: [] };
      else if (fence && open) {
        found.push({ file, ...open });
        open = undefined;
      } else open?.lines.push(text);
    });
  return found;
}

/** Returns whether `shown` (a README line, `…` standing for left-out text) matches `actual`. */
function matches(shown: string, actual: string): boolean {
  const parts = shown
    .trim()
    .split('…')
    .map((p) => p.trim())
    .filter(Boolean);
  let at = 0;
  for (const part of parts) {
    const found = actual.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return shown.trim().startsWith('…') || actual.trim().startsWith(parts[0] ?? '');
}

const consoleBlocks = DOCS.flatMap(blocks).filter((b) => b.lang === 'console');

test('the README has console examples to check', (t) => {
  t.true(consoleBlocks.length >= 2);
});

for (const block of consoleBlocks) {
  test(`console block ${block.file}:${block.line} runs as shown`, (t) => {
    let last: { status: number | null; lines: string[] } | undefined;
    let expected: string[] = [];
    const finish = () => {
      if (!last) return;
      let at = 0;
      for (const shown of expected.filter((l) => l.trim() && l.trim() !== '…')) {
        const index = last.lines.findIndex((line, i) => i >= at && matches(shown, line));
        t.true(
          index >= 0,
          `${block.file}:${block.line}: shown line not in the output (in order):\n` +
            `  ${shown}\n` +
            `--- output:\n` +
            `${last.lines.join('\n')}`,
        );
        if (index >= 0) at = index + 1;
      }
      expected = [];
    };
    for (const line of block.lines) {
      if (line === '$ echo $?') {
        finish();
        expected = [];
        continue;
      }
      if (line.startsWith('$ ')) {
        finish();
        const args = line.slice(2).split(/\s+/);
        t.is(args[0], 'kube-graceful', `${line}: console blocks run kube-graceful only`);
        const run = spawnSync(process.execPath, [cliPath(), ...args.slice(1)], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
        });
        last = { status: run.status, lines: `${run.stdout}${run.stderr}`.split('\n') };
        continue;
      }
      if (
        last &&
        expected.length === 0 &&
        /^\d+$/.test(line) &&
        block.lines[block.lines.indexOf(line) - 1] === '$ echo $?'
      ) {
        t.is(String(last.status), line, `${block.file}:${block.line}: exit code`);
        continue;
      }
      expected.push(line);
    }
    finish();
  });
}

test('sh blocks name scripts and files that exist', (t) => {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  let checked = 0;
  for (const block of DOCS.flatMap(blocks).filter((b) => b.lang === 'sh')) {
    for (const line of block.lines) {
      const command = line.replace(/\s+#.*$/, '');
      for (const segment of command.split(/&&|\|/).map((s) => s.trim())) {
        const where = `${block.file}:${block.line}: ${segment}`;
        const npmRun = /^npm run (\S+)/.exec(segment);
        if (npmRun) {
          t.truthy(scripts[npmRun[1]!], `${where}: no npm script ${npmRun[1]}`);
          checked += 1;
        }
        const script = /^(?:bash|sh) (\S+)/.exec(segment);
        if (script) {
          t.true(existsSync(join(ROOT, script[1]!)), `${where}: no file ${script[1]}`);
          checked += 1;
        }
        const ava = /^npx ava(.*)$/.exec(segment);
        if (ava) {
          for (const path of ava[1]!
            .trim()
            .split(/\s+/)
            .filter((a) => a && !a.startsWith('-'))) {
            t.true(existsSync(join(ROOT, path)), `${where}: no test path ${path}`);
            checked += 1;
          }
        }
      }
    }
  }
  t.true(checked >= 5, `checked ${checked} references`);
});

test('npm run example shows why (explain), then what changes (a diff)', (t) => {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  t.is(scripts['example'], 'npm run build --silent && sh examples/quickstart/show.sh');
  const run = spawnSync('sh', ['examples/quickstart/show.sh'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  t.is(run.status, 0, run.stderr);
  const why = run.stdout.indexOf('== 1. Why');
  const what = run.stdout.indexOf('== 2. What changes');
  t.true(why >= 0 && what > why, run.stdout);
  t.regex(run.stdout.slice(why, what), /Patched: ✓ no request fails/);
  t.regex(run.stdout.slice(what), /^\+ {6}terminationGracePeriodSeconds: \d+$/m);
  t.regex(
    run.stdout.slice(why, what),
    /Istio 1\.30\.3 \(pod template label helm\.sh\/chart: gateway-1\.30\.3\)/,
    'the example is read as the chart it is',
  );
});
