/**
 * Golden cases (STYLE.md): `test/golden/<case>/` holds the input (`input.yaml`, or `input.from`
 * naming a corpus fixture), an optional `config.yaml`, and the expected `expected.yaml` and
 * `report.txt`. `npm run golden:update` rewrites the expected files; review them like code.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigText } from '../../fn/config/load.ts';
import { transform } from '../../fn/engine/transform.ts';
import type { TransformResult } from '../../fn/engine/transform.ts';
import { textReport } from '../../fn/report/text.ts';
import { readStream } from '../../fn/stream/stream.ts';
import { corpus, ROOT } from './fixtures.ts';
import { validateKubernetesObject } from './schema.ts';

export const GOLDEN_DIR = join(ROOT, 'test', 'golden');
export const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** A golden case as read from its folder. */
export interface GoldenCase {
  readonly name: string;
  readonly dir: string;
  readonly input: string;
  readonly configText?: string;
}

/** Returns every golden case, optionally only those whose name starts with `prefix`. */
export function goldenCases(prefix = ''): GoldenCase[] {
  if (!existsSync(GOLDEN_DIR)) return [];
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith(prefix))
    .map((d) => {
      const dir = join(GOLDEN_DIR, d.name);
      const from = join(dir, 'input.from');
      const input = existsSync(from) ? corpus(readFileSync(from, 'utf8').trim()) : readFileSync(join(dir, 'input.yaml'), 'utf8');
      const configFile = join(dir, 'config.yaml');
      return { name: d.name, dir, input, ...(existsSync(configFile) ? { configText: readFileSync(configFile, 'utf8') } : {}) };
    });
}

/** Returns the result of running kube-graceful on a case with its config. */
export function runCase(goldenCase: GoldenCase, input = goldenCase.input): TransformResult {
  const config = goldenCase.configText === undefined ? undefined : readConfigText(goldenCase.configText, 'config.yaml');
  return transform(input, config ? { config } : {});
}

/** Returns the expected file's text, writing `actual` first when updating. */
export function expected(goldenCase: GoldenCase, file: string, actual: string): string {
  const path = join(goldenCase.dir, file);
  if (UPDATE) writeFileSync(path, actual);
  return readFileSync(path, 'utf8');
}

/** Returns the report text the golden `report.txt` holds for a result. */
export function reportOf(result: TransformResult): string {
  return textReport(result.changes, result.findings, result.config);
}

/** Validates every document the run changed against the Kubernetes schemas; returns how many were checked. */
export function validateChangedDocuments(result: TransformResult): number {
  const before = readStream(result.input, { extraKinds: [] }).entries;
  const after = readStream(result.output, { extraKinds: [] }).entries;
  let checked = 0;
  after.forEach((entry, index) => {
    if (!entry.doc || entry.segment.text === before[index]?.segment.text) return;
    const data = entry.doc.data as { kind?: string; items?: unknown[] };
    const objects = data.kind === 'List' && Array.isArray(data.items) ? data.items : [data];
    for (const object of objects) if (validateKubernetesObject(object as { kind?: string })) checked++;
  });
  return checked;
}
