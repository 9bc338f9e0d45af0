/**
 * The real command line (fn/cli/main.ts, run from source) with one more mutator registered that
 * edits the first N workloads and then throws: a crash part-way through a run, injected only here
 * so no test hook ships in dist/cli.js (issue #8, atomic output). At exit it writes to fd 3 how
 * many times stdout was written to.
 *
 * Usage: node --import tsx reliability-throwing-cli.ts <edits before the throw> <crash|input> [cli
 * args…]
 */
import type * as NodeFs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import { MUTATORS } from '../../fn/mutators/registry.ts';
import { defineMutator } from '../../fn/mutators/types.ts';
import type { RegisteredMutator } from '../../fn/mutators/types.ts';
import { APP_SETTINGS } from '../../fn/mutators/app/settings/slice.ts';

/** Test mutators make no plan, so nothing asks them to explain one. */
const noPlan = (): never => {
  throw new Error('a test mutator makes no plan');
};

const [editsText, how] = process.argv.splice(2, 2);
const edits = Number(editsText);
let seen = 0;
const throwing: RegisteredMutator = defineMutator<never, 'app-graceful'>({
  id: 'app-graceful',
  settings: APP_SETTINGS,
  findingCodes: [],
  explain: noPlan,
  description: 'reliability test: throws part-way through a run',
  enabled: () => true,
  mutate(workload) {
    seen++;
    if (seen > edits) {
      if (how === 'input')
        throw new KubeGracefulError(
          'E_INPUT',
          `refused workload ${seen} part-way through the run`,
          { document: seen },
        );
      throw new Error(`crashed on workload ${seen} part-way through the run`);
    }
    return {
      changes: [
        {
          path: workload.at('metadata', 'annotations', 'atomic.example/edited'),
          value: String(seen),
          reason: 'edited before the crash',
        },
      ],
      findings: [],
    };
  },
});
(MUTATORS as unknown as RegisteredMutator[]).push(throwing);

// The CLI writes stdout with fs.writeSync or fs.writevSync on fd 1 (fn/cli/io.ts writeAll):
// count those writes. syncBuiltinESMExports makes the ES module imports of node:fs see the
// wrappers.
let writes = 0;
const fs = createRequire(import.meta.url)('node:fs') as typeof NodeFs;
const realWriteSync = fs.writeSync;
const realWritevSync = fs.writevSync;
fs.writeSync = (fd: number, ...rest: unknown[]) => {
  if (fd === 1) writes++;
  return (realWriteSync as (...args: unknown[]) => number)(fd, ...rest);
};
fs.writevSync = (fd: number, ...rest: unknown[]) => {
  if (fd === 1) writes++;
  return (realWritevSync as (...args: unknown[]) => number)(fd, ...rest);
};
syncBuiltinESMExports();
process.on('exit', () => {
  try {
    realWriteSync(3, String(writes));
  } catch {
    // no fd 3: run by hand
  }
});

await import('../../fn/cli/main.ts');
