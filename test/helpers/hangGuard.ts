/**
 * How long one command a test runs (the CLI, Helm, kpt, kustomize, a wrapped Job) may take before
 * it counts as hung and is killed, so a hang fails with a message instead of stalling CI.
 *
 * A guard against hangs, never a speed limit (issue #15.7): each of these commands ends in
 * seconds on an idle machine, and on a 2-core machine shared with CPU-bound jobs in many times
 * that; tighter limits (10-60 s) failed good runs there. Speed is measured by `npm run bench`,
 * not by tests. It stays under ava's own guard, `timeout` in package.json (10 min without a
 * result).
 */
export const HANG_GUARD_MS = 5 * 60_000;
