/** Paths of the project's own test fixtures (tests never read ../shared). */
import { readFileSync, readdirSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Returns the absolute path of a file under test/fixtures. */
export function fixturePath(...parts: string[]): string {
  return join(ROOT, 'test', 'fixtures', ...parts);
}

/** Returns the text of a corpus fixture (a real rendered chart). */
export function corpus(name: string): string {
  return readFileSync(fixturePath('corpus', name), 'utf8');
}

/** Returns the names of all corpus fixtures. */
export function corpusNames(): string[] {
  return readdirSync(fixturePath('corpus'))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

/** Returns the absolute path of the bundled CLI (built by `npm run build`). */
export function cliPath(): string {
  return join(ROOT, 'dist', 'cli.js');
}

/**
 * Returns the names of the files `npm run build` wrote to dist/, sorted: not the single executable
 * `npm run binary` adds there (dist/kube-graceful-<os>-<cpu>), which neither the npm package, the
 * Helm 4 plugin folder nor the image carries.
 */
export function builtFiles(): string[] {
  return readdirSync(join(ROOT, 'dist'))
    .filter((f) => !/^kube-graceful-[a-z0-9]+-[a-z0-9]+$/.test(f))
    .sort();
}

/**
 * Returns the first object of `kind` (and `name`, when given) in a corpus fixture, parsed as
 * Kubernetes reads it.
 */
export function corpusObject(file: string, kind: string, name?: string): Record<string, unknown> {
  const object = parseAllDocuments(corpus(file), { version: '1.1' })
    .map((doc) => doc.toJS() as { kind?: string; metadata?: { name?: string } } | null)
    .find((o) => o?.kind === kind && (name === undefined || o.metadata?.name === name));
  if (!object) throw new Error(`no ${kind}${name ? ` ${name}` : ''} in corpus fixture ${file}`);
  return object;
}
