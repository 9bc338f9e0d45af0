/** The mutators, in the order they run. Each lives in its own folder with its tests and docs. */
import { appGraceful } from './app/index.ts';
import { gatewayDrain } from './gateway/index.ts';
import { jobSidecarQuit } from './job/index.ts';
import type { Mutator } from './types.ts';

export const MUTATORS: readonly Mutator[] = [
  gatewayDrain,
  jobSidecarQuit,
  appGraceful,
];
