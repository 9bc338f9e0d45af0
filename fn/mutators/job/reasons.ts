/**
 * The explanation every change of this mutator shares: why a Job with a sidecar hangs, and why
 * preStop is no fix.
 */

export const STUCK_JOB =
  'A classic sidecar keeps running after the program exits, ' +
  'so the pod never completes (kubernetes/kubernetes#25908); a preStop hook cannot help, ' +
  'it never runs when a container exits by itself ("The handler is not called if the ' +
  'container crashes or exits", core/v1 Lifecycle API doc).';
