/**
 * The files a command line names (issue #29 item 1): a folder stands for the manifest files under
 * it, so `kube-graceful check rendered/` reads what `helm template --output-dir rendered` wrote
 * instead of failing with EISDIR.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KubeGracefulError } from '../core/errors.ts';

/** The names a folder's manifest files end with (what `kubectl apply -f DIR` reads). */
const MANIFEST_FILE = /\.(?:ya?ml|json)$/i;

/**
 * Returns `paths` with each folder replaced by the manifest files under it, recursively, sorted by
 * path so that a run reads them in the same order on every machine. Files and `-` are kept as
 * named, whatever their names: a user who names a file means it. Hidden entries under a folder
 * (`.git/`, `.helmignore`) are not manifests and are skipped, and so are symbolic links to
 * folders, which can loop. A folder without a manifest file gives no path: the caller counts
 * what it read, and `check` fails on nothing read.
 */
export function expandInputPaths(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    path !== '-' && isFolder(path) ? manifestFilesUnder(path) : [path],
  );
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // reading the file names the error (io.ts readInputFile)
  }
}

function manifestFilesUnder(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw new KubeGracefulError(
      'E_USAGE',
      `cannot read folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {},
      'Check the path and its permissions.',
    );
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...manifestFilesUnder(path));
    else if (MANIFEST_FILE.test(entry.name) && (entry.isFile() || linksToFile(entry, path)))
      files.push(path);
  }
  return files;
}

function linksToFile(entry: { isSymbolicLink(): boolean }, path: string): boolean {
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false; // a dangling link: nothing to read
  }
}
