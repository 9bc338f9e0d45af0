/**
 * The app mutator's settings: `spec.app` of the config, its defaults and its flat keys. Imports
 * only zod and fn/config's field helpers, so the config can compose it without loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const APP_MODES = ['on', 'off'] as const;
const CLASSIC_DRAINS = ['exit-on-zero', 'termination-drain'] as const;

/** `spec.app` when nothing sets it: the one place these values are written. */
const APP_DEFAULTS = {
  mode: 'on',
  imageHasShell: false,
  classicDrain: 'exit-on-zero',
} as const;

function appSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(APP_MODES), APP_DEFAULTS.mode),
      imageHasShell: z._default(z.boolean(), APP_DEFAULTS.imageHasShell),
      classicDrain: z._default(z.enum(CLASSIC_DRAINS), APP_DEFAULTS.classicDrain),
      servingContainers: z.optional(z.array(z.string())),
    }),
    APP_DEFAULTS,
  );
}

const APP_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'app-mode',
    specPath: ['app', 'mode'],
    read: 'string',
    help: 'app preStop and sidecar ordering: on or off',
    choices: APP_MODES,
  },
  details: [
    {
      name: 'app-image-has-shell',
      specPath: ['app', 'imageHasShell'],
      read: 'boolean',
      help: 'app images have /bin/sh and sleep (allows exec sleep on old clusters)',
    },
  ],
};

/** `spec.app`: what fn/config composes (fn/config/slices.ts). */
export const APP_SETTINGS = defineSlice({
  key: 'app',
  defaults: APP_DEFAULTS,
  schema: appSettingsSchema,
  flatKeys: APP_FLAT_KEYS,
});
