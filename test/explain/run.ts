/**
 * Runs kube-graceful's command line in this process (argv parsed by the real program, output
 * captured instead of written), and the explain golden cases
 * (test/explain/golden/<case>/case.json).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildProgram } from '../../fn/cli/program.ts';
import type { CommandOutput } from '../../fn/cli/transformCommand.ts';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import { fixturePath, ROOT } from '../helpers/fixtures.ts';

/** Returns what `kube-graceful ARGS` prints (exit 2 with the error's message for bad input). */
export async function runInProcess(
  args: readonly string[],
): Promise<CommandOutput & { readonly stdout: string }> {
  let output: CommandOutput | undefined;
  const program = buildProgram(async (work) => {
    try {
      output = await work();
    } catch (error) {
      if (!(error instanceof KubeGracefulError)) throw error;
      output = { stdout: '', stderr: [error.message], exitCode: error.exitCode };
    }
  });
  await program.parseAsync(['node', 'kube-graceful', ...args]);
  if (!output) throw new Error(`no output for ${args.join(' ')}`);
  const { stdout } = output;
  return {
    ...output,
    stdout: typeof stdout === 'string' ? stdout : Buffer.concat(stdout).toString('utf8'),
  };
}

export const EXPLAIN_GOLDEN_DIR = join(ROOT, 'test', 'explain', 'golden');
export const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** One explain golden case. */
export interface ExplainCase {
  readonly name: string;
  readonly dir: string;
  /** The corpus file, relative to the repository root (as the goldens show it). */
  readonly file: string;
  readonly args: readonly string[];
  readonly formats: ReadonlyArray<'text' | 'json' | 'markdown'>;
}

/** Returns every case under test/explain/golden. */
export function explainCases(): ExplainCase[] {
  return readdirSync(EXPLAIN_GOLDEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(EXPLAIN_GOLDEN_DIR, d.name);
      const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as {
        input: string;
        args: string[];
        formats: ExplainCase['formats'];
      };
      return {
        name: d.name,
        dir,
        file: relative(ROOT, fixturePath('corpus', spec.input)),
        args: spec.args,
        formats: spec.formats,
      };
    });
}

export const FORMAT_FILES = {
  text: 'explain.txt',
  json: 'explain.json',
  markdown: 'explain.md',
} as const;

/** Returns the expected file's text, writing `actual` first when UPDATE_GOLDEN=1. */
export function expectedFile(goldenCase: ExplainCase, file: string, actual: string): string {
  const path = join(goldenCase.dir, file);
  if (UPDATE || !existsSync(path)) {
    if (!UPDATE)
      throw new Error(`${path} is missing: run npm run golden:update:explain and review it`);
    writeFileSync(path, actual);
  }
  return readFileSync(path, 'utf8');
}
