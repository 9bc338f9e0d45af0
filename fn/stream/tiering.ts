/**
 * Lets V8 optimize again when a run turns out to be long. The launcher (fn/cli/launcher.ts) caps
 * V8 at its baseline compiler, because a sub-second run only waits at exit for optimizing compiles
 * it never profits from. A stream with thousands of workloads runs for seconds in yaml's parser,
 * where TurboFan halves the time (issue #16: bookinfo in 400 namespaces, 2,400 Deployments, about
 * 10 s of CPU capped and 5.5 s not, on Node 20.20).
 *
 * `--max-opt=1` also turns `--turbofan` off when V8 reads it (flag-definitions.h in V8 11.3, the
 * V8 of Node 20: `DEFINE_WEAK_VALUE_IMPLICATION(max_opt < 3, turbofan, false)`), so both are set
 * back. Setting them after start-up is what node:v8 setFlagsFromString is for; the code cache was
 * already checked against the flags it was made with, and code is the same at every tier.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * How many bytes of documents to parse make a run long enough for optimizing to pay. Measured on
 * this project's shapes (issue #34 items 6 and 7, best of three, Node 20.20): meshed Deployments
 * cost the same either way at 128 KB (0.59 s), and optimizing wins from there (256 KB: 0.89 s
 * against 1.01 s; 512 KB: 1.29 s against 1.89 s). At 512 KB the runs just below the switch took
 * 1.5× the time of those just above it. But TurboFan's code and zones cost about 14 MiB of peak
 * RSS (bookinfo ×25, 200 KB: 55 MiB capped, 69 MiB optimized), so the switch is at 256 KB: the
 * runs just below it take about 1.13× those just above, and smaller inputs keep their memory.
 */
const OPTIMIZE_ABOVE_BYTES = 256 * 1024;

let optimizing = false;

/**
 * Lets V8 optimize hot functions from now on, once `bytesToParse` is above OPTIMIZE_ABOVE_BYTES.
 */
export function optimizeForLongRun(bytesToParse: number): void {
  if (optimizing || bytesToParse <= OPTIMIZE_ABOVE_BYTES) return;
  optimizing = true;
  // V8's defaults (node --v8-options on Node 20: --max-opt=999, --turbofan).
  setFlagsFromString('--max-opt=999');
  setFlagsFromString('--turbofan');
}
