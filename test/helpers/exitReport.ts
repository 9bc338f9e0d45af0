/**
 * A preload (`node --require FILE`) that writes one figure to stderr as the process exits, for
 * tests that measure a CLI run from inside it: peak RSS (test/performance/krm-memory.test.ts), the
 * young generation's size (test/performance/young-generation.test.ts). It reads the figure after
 * the run's last line, as Helm, kpt and kustomize run the CLI: no node flags besides the preload.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './integration.ts';

/** A named figure and the CommonJS expression that gives it at exit. */
export interface ExitFigure {
  readonly name: string;
  readonly expression: string;
}

/** Peak RSS in KiB, the kernel's (getrusage's ru_maxrss). */
export const MAX_RSS_KIB: ExitFigure = {
  name: 'maxRSS',
  expression: 'process.resourceUsage().maxRSS',
};

/** The young generation's size in bytes (V8's new space). */
export const NEW_SPACE_BYTES: ExitFigure = {
  name: 'new_space',
  expression:
    "require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')" +
    '.space_size',
};

/** Returns the path of a preload that reports `figure` at exit. */
export function exitReport(figure: ExitFigure): string {
  const file = join(tempDir(`exit-report-${figure.name}`), 'report.cjs');
  writeFileSync(
    file,
    `process.on('exit', () => process.stderr.write(` +
      `${JSON.stringify(`${figure.name} `)} + (${figure.expression}) + '\\n'));\n`,
  );
  return file;
}

/** Returns the figure a run's stderr reports; throws when it reports none. */
export function reported(figure: ExitFigure, stderr: string): number {
  const value = new RegExp(`^${figure.name} (\\d+)$`, 'm').exec(stderr)?.[1];
  if (value === undefined) throw new Error(`no ${figure.name} reported: ${stderr}`);
  return Number(value);
}
