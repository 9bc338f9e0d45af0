/**
 * The Job mutator's settings: `spec.job` of the config, its defaults and its flat keys. Imports
 * only zod and fn/config's field helpers, so the config can compose it without loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const JOB_MODES = ['auto', 'native', 'wrap', 'off'] as const;

/** `spec.job` when nothing sets it: the one place these values are written. */
const JOB_DEFAULTS = { mode: 'auto' } as const;

function jobSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(JOB_MODES), JOB_DEFAULTS.mode),
      mainContainers: z.optional(z.array(z.string())),
      /**
       * Containers of a Job's pod that are sidecars besides the known images
       * (fn/workloads/declaredSidecars.ts): moved to native sidecars where the kubelet has them.
       */
      sidecars: z.optional(z.array(z.string())),
      /**
       * Whether the main images have /bin/sh for the wrapper; unset: trust the list of images known
       * to have none.
       */
      imageHasShell: z.optional(z.boolean()),
      /**
       * Whether the main images have curl or wget for the wrapper's quit call; unset: trust the
       * list of known images.
       */
      imageHasHttpClient: z.optional(z.boolean()),
    }),
    JOB_DEFAULTS,
  );
}

const JOB_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'job-mode',
    specPath: ['job', 'mode'],
    read: 'string',
    help: 'Job sidecar quit: native, wrap (command wrapper), auto, off',
    choices: JOB_MODES,
  },
  details: [
    {
      name: 'job-sidecars',
      specPath: ['job', 'sidecars'],
      read: 'list',
      help:
        'Job containers that are sidecars (comma-separated names), besides the known images: ' +
        'made native sidecars so the Job completes',
    },
    {
      name: 'job-image-has-shell',
      specPath: ['job', 'imageHasShell'],
      read: 'boolean',
      help:
        'Job images have /bin/sh for the wrap mode (overrides the list of images known to ' +
        'have none)',
    },
    {
      name: 'job-image-has-http-client',
      specPath: ['job', 'imageHasHttpClient'],
      read: 'boolean',
      help:
        'Job images have curl or wget for the wrap mode quit call (overrides the list of ' +
        'known images)',
    },
  ],
};

/** `spec.job`: what fn/config composes (fn/config/slices.ts). */
export const JOB_SETTINGS = defineSlice({
  key: 'job',
  defaults: JOB_DEFAULTS,
  schema: jobSettingsSchema,
  flatKeys: JOB_FLAT_KEYS,
});
