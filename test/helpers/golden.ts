/**
 * Golden cases (docs/ARCHITECTURE.md, "Tests"): `test/golden/<case>/` holds the input
 * (`input.yaml`, or `input.from` naming a corpus fixture), an optional `config.yaml`, what the
 * run changes (`expected.diff`, a unified diff of the input against the expected output) and the
 * report (`report.txt`). A case whose run must fail holds `expected.err` instead: the exit code
 * and stderr as the command prints them, stdout being empty (create the file empty to make a
 * case an error case, then update).
 * `npm run golden:update:stream` rewrites the expected files; review them like code.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { settle } from '../../fn/cli/outcome.ts';
import { runTransform } from '../../fn/cli/transformCommand.ts';
import type { CommandOutput } from '../../fn/cli/transformCommand.ts';
import { readConfigText } from '../../fn/config/load.ts';
import { REGISTERED_OBJECT_KINDS } from '../../fn/engine/objectKinds.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import { textReport } from '../../fn/report/text.ts';
import { readStream } from '../../fn/stream/stream.ts';
import { fixturePath, ROOT } from './fixtures.ts';
import { applyGoldenDiff, goldenDiff } from './goldenDiff.ts';
import { validateKubernetesObject } from './schema.ts';

export const GOLDEN_DIR = join(ROOT, 'test', 'golden');
export const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** A golden case as read from its folder. */
export interface GoldenCase {
  readonly name: string;
  readonly dir: string;
  /** The input's path relative to the repository root, as the stored diff names it. */
  readonly inputName: string;
  readonly input: string;
  readonly configText?: string;
}

/** Returns every golden case, optionally only those whose name starts with `prefix`. */
export function goldenCases(prefix = ''): GoldenCase[] {
  return everyCase(prefix).filter((c) => !isErrorCase(c));
}

/** Returns every golden case whose run must fail (it holds `expected.err`). */
export function goldenErrorCases(): GoldenCase[] {
  return everyCase().filter(isErrorCase);
}

function everyCase(prefix = ''): GoldenCase[] {
  if (!existsSync(GOLDEN_DIR)) return [];
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith(prefix))
    .map((d) => {
      const dir = join(GOLDEN_DIR, d.name);
      const from = join(dir, 'input.from');
      const inputPath = existsSync(from)
        ? fixturePath('corpus', readFileSync(from, 'utf8').trim())
        : join(dir, 'input.yaml');
      const input = readFileSync(inputPath, 'utf8');
      const configFile = join(dir, 'config.yaml');
      return {
        name: d.name,
        dir,
        inputName: relative(ROOT, inputPath),
        input,
        ...(existsSync(configFile) ? { configText: readFileSync(configFile, 'utf8') } : {}),
      };
    });
}

/** Returns the result of running kube-graceful on a case with its config. */
export function runCase(goldenCase: GoldenCase, input = goldenCase.input): TransformResult {
  const config =
    goldenCase.configText === undefined
      ? undefined
      : readConfigText(goldenCase.configText, 'config.yaml');
  return transform(input, config ? { config } : {});
}

/** Returns the expected file's text, writing `actual` first when updating. */
export function expected(goldenCase: GoldenCase, file: string, actual: string): string {
  const path = join(goldenCase.dir, file);
  if (UPDATE) writeFileSync(path, actual);
  return readFileSync(path, 'utf8');
}

/** The file that stores what a case's run changes. */
export const EXPECTED_DIFF = 'expected.diff';

/** The file that stores how a failing case fails: `exit N`, then stderr. */
export const EXPECTED_ERR = 'expected.err';

/** Returns true when the case must fail (it holds `expected.err`). */
export function isErrorCase(goldenCase: GoldenCase): boolean {
  return existsSync(join(goldenCase.dir, EXPECTED_ERR));
}

/**
 * Returns what the transform command prints for the case, in process, as `kube-graceful
 * [--config test/golden/<case>/config.yaml] < input` would: stdout, stderr and the exit code.
 */
export async function commandOutcome(goldenCase: GoldenCase): Promise<CommandOutput> {
  const config = join(goldenCase.dir, 'config.yaml');
  return settle(() =>
    runTransform(
      { flags: {}, ...(existsSync(config) ? { config: relative(ROOT, config) } : {}) },
      Buffer.from(goldenCase.input),
    ),
  );
}

/** Returns the text `expected.err` holds for an outcome. */
export function errorText(outcome: CommandOutput): string {
  return `exit ${outcome.exitCode}\n${outcome.stderr.join('\n')}\n`;
}

/**
 * Returns the output the case expects: its input with `expected.diff` applied (the diff is written
 * from `actual` first when updating). Throws when the stored diff no longer fits the input.
 */
export function expectedOutput(goldenCase: GoldenCase, actual: string): string {
  const path = join(goldenCase.dir, EXPECTED_DIFF);
  if (UPDATE) {
    writeFileSync(path, goldenDiff(goldenCase.inputName, goldenCase.input, actual));
    // The whole copies this format replaces (issue #14 item 7).
    rmSync(join(goldenCase.dir, 'expected.yaml'), { force: true });
  }
  if (!existsSync(path))
    throw new Error(
      `${relative(ROOT, path)} is missing: run npm run golden:update:stream and review it`,
    );
  const output = applyGoldenDiff(goldenCase.input, readFileSync(path, 'utf8'));
  if (output === undefined)
    throw new Error(
      `${relative(ROOT, path)} does not apply to ${goldenCase.inputName}: the input changed; ` +
        `run npm run golden:update:stream and review the diff`,
    );
  return output;
}

/** Returns the report text the golden `report.txt` holds for a result. */
export function reportOf(result: TransformResult): string {
  return textReport(result.changes, result.findings, result.config);
}

/**
 * Validates every document the run changed against the Kubernetes schemas; returns how many were
 * checked.
 */
export function validateChangedDocuments(result: TransformResult): number {
  // The object mutators' kinds (an EnvoyProxy…) are read as the run read them.
  const before = readStream(result.input, {
    extraKinds: [],
    objectKinds: REGISTERED_OBJECT_KINDS,
  }).entries;
  const after = readStream(result.output, {
    extraKinds: [],
    objectKinds: REGISTERED_OBJECT_KINDS,
  }).entries;
  let checked = 0;
  after.forEach((entry, index) => {
    if (!entry.doc || entry.segment.text === before[index]?.segment.text) return;
    const data = entry.doc.data as { kind?: string; items?: unknown[] };
    const objects = data.kind === 'List' && Array.isArray(data.items) ? data.items : [data];
    for (const object of objects)
      if (validateKubernetesObject(object as { kind?: string })) checked++;
  });
  return checked;
}
