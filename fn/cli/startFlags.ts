/**
 * The V8 flags every run starts with, set when this module is evaluated: the launcher
 * (fn/cli/launcher.ts) imports it before it compiles the bundle, the single executable's main
 * (fn/cli/executableMain.ts) before the CLI's own modules run. Both ways then run with the same V8
 * settings: they differ in speed only, never in output.
 */
import { setFlagsFromString } from 'node:v8';

// A run lasts a fraction of a second: V8's optimizing compilers (TurboFan) then only cost, in
// background compile jobs the process waits for at exit (about 15 ms of a 6 KB chart's run).
// Interpreter and baseline code (Sparkplug) only. Set before the script is compiled, in every run
// and in the training run alike, so the cache's flag hash matches. A stream that turns out to be
// long (seconds of parsing) lifts the cap again: fn/stream/tiering.ts.
setFlagsFromString('--max-opt=1');

// V8 lets the old generation grow to up to 4× what survived its last full collection before it
// collects again (MemoryController::GrowingFactor in src/heap/heap-controller.cc, its dynamic
// factor from the collector's speed against the program's: a fast collector earns a large one).
// A dense stream's run promotes each document's tree to the old generation and then lets it go:
// bookinfo ×400 ended with 34 MB of old generation for 9.5 MB alive (issue #16, peak memory).
// `--heap-growing-percent=10` fixes the factor at 1.1, so the next collection comes after the
// larger of 10 % and V8's minimum step (8 MB, Heap::MinimumAllocationLimitGrowingStep) of new
// garbage: bookinfo ×1600's peak went from 160 to 140 MiB for no more CPU (a handful of extra
// collections of 10 to 40 ms). Set here, before the script is compiled, so that the training run
// makes the code cache with it and every run's flags match it. A run that parses a document of a
// MiB or more goes back to V8's own growth (fn/stream/youngGeneration.ts).
setFlagsFromString('--heap-growing-percent=10');
