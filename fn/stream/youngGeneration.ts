/**
 * Keeps V8's young generation small (issue #16 item 5: peak memory linear in the input, below
 * Node's baseline plus 4× the input).
 *
 * Node 20 lets each of the young generation's two semi-spaces grow to 16 MiB on 64-bit, and yaml's
 * parser allocates enough to grow them to that cap once a run parses a few hundred KB: about 30
 * MiB of RSS whatever the input. `node --max-semi-space-size=2` would cap them, but that size is
 * fixed when the heap is made, and dist/cli.js is started by its shebang (Helm 3, the Helm 4
 * plugin, kpt and kustomize exec it) with no way to pass a node flag that works everywhere:
 * `#!/usr/bin/env -S node …` needs GNU coreutils ≥ 8.30 or a BSD env, and busybox's env (Alpine,
 * where Helm often runs in CI) refuses `-S`. So the cap is set from inside, at run time:
 *
 * V8 grows the young generation by `--semi-space-growth-factor`, read at each growth
 * (`SemiSpaceNewSpace::Grow` in src/heap/new-spaces.cc: `v8_flags.semi_space_growth_factor *
 * TotalCapacity()`; the flag is `DEFINE_INT(semi_space_growth_factor, 2, …)` in
 * src/flags/flag-definitions.h; on Node 20.20, V8 11.3.244.8,
 * test/performance/young-generation.test.ts holds the effect). Setting it to 1 once the young
 * generation has reached SEMI_SPACES_CAP stops it there. Capped at 1 MiB a semi-space
 * (`node --max-semi-space-size=1`), bookinfo ×400 took about 15 % more CPU; at 2 MiB it costs
 * nothing measurable and saves what 16 MiB took (README, Performance). Later V8 releases raise the
 * flag to at least 2 (`DEFINE_MIN_VALUE_IMPLICATION(semi_space_growth_factor, 2)`): there this
 * does nothing, and never anything else: the flag only steers how the heap grows, never what the
 * code computes.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation's size (both semi-spaces) at which it stops growing: 2 MiB each. */
const SEMI_SPACES_CAP = 4 * 2 ** 20;

/**
 * How many bytes of documents may be handed out between two looks at the heap. A look costs about
 * 25 µs (v8.getHeapSpaceStatistics builds every space's entry); the young generation only grows
 * after a scavenge in which more than its capacity survived since it last grew, which parsing 64
 * KB of YAML does not allocate.
 */
const LOOK_EVERY_BYTES = 64 * 1024;

let capped = false;

/**
 * A document this large (one long scalar, say) is parsed with V8's own heap sizing (issue #34 item
 * 5). yaml builds a double-quoted scalar a character at a time (compose/resolve-flow-scalar.js
 * doubleQuotedValue, yaml 2.9.1): a string of millions of pieces, all alive until the scalar is
 * done. A 2 MiB young generation promotes them as they come, and the old generation, held to 10 %
 * growth by the start's flags (fn/cli/startFlags.ts), is collected again every few MB of them,
 * each collection longer than the last: a meshed Deployment with one 8 MiB annotation took 4 s
 * (14 full collections), 4.6× the time of 2 MiB, where yaml alone parsing and printing it takes
 * 2 s. With V8's defaults: one full collection, 2 s, 3× the time of 2 MiB; peak memory as yaml's
 * own.
 */
const LARGE_DOCUMENT_BYTES = 2 ** 20;
let roomMade = false;
let bytesSinceLook = LOOK_EVERY_BYTES;

/**
 * Called with the size of each document about to be parsed: stops the young generation's growth
 * once it has reached SEMI_SPACES_CAP.
 */
export function keepYoungGenerationSmall(documentBytes: number): void {
  if (documentBytes >= LARGE_DOCUMENT_BYTES) {
    makeRoomForLargeDocument();
    return;
  }
  if (capped || roomMade) return;
  bytesSinceLook += documentBytes;
  if (bytesSinceLook < LOOK_EVERY_BYTES) return;
  bytesSinceLook = 0;
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (newSpace === undefined || newSpace.space_size < SEMI_SPACES_CAP) return;
  capped = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Gives the rest of the run V8's default heap growth: semi-spaces that grow (factor 2, V8's
 * default) and an old generation whose next collection V8 sizes from its own speeds
 * (`--heap-growing-percent=0`: MemoryController::GrowingFactor in src/heap/heap-controller.cc
 * applies the flag only when it is above 0).
 */
function makeRoomForLargeDocument(): void {
  if (roomMade) return;
  roomMade = true;
  setFlagsFromString('--semi-space-growth-factor=2');
  setFlagsFromString('--heap-growing-percent=0');
}
