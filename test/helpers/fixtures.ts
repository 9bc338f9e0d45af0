/** Paths of the project's own test fixtures (tests never read ../shared). */
import { readFileSync, readdirSync } from 'node:fs';
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
  return readdirSync(fixturePath('corpus')).filter((f) => f.endsWith('.yaml')).sort();
}

/** Returns the absolute path of the bundled CLI (built by `npm run build`). */
export function cliPath(): string {
  return join(ROOT, 'dist', 'cli.js');
}
