/**
 * The app mutator's settings: `spec.app` of the config, its defaults and its flat keys. Imports
 * only zod and fn/config's field helpers, so the config can compose it without loading the mutator.
 */
import * as z from 'zod';
import { modeSwitch } from '../../config/fields.ts';
import type { SliceFlatKeys } from '../../config/flatKey.ts';

export const APP_MODES = ['on', 'off'] as const;
export const CLASSIC_DRAINS = ['exit-on-zero', 'termination-drain'] as const;

/** `spec.app` when nothing sets it: the one place these values are written. */
export const APP_DEFAULTS = { mode: 'on', imageHasShell: false, classicDrain: 'exit-on-zero' } as const;

export function appSettingsSchema() {
  return z
    .strictObject({
      mode: modeSwitch(APP_MODES).default(APP_DEFAULTS.mode),
      imageHasShell: z.boolean().default(APP_DEFAULTS.imageHasShell),
      classicDrain: z.enum(CLASSIC_DRAINS).default(APP_DEFAULTS.classicDrain),
      servingContainers: z.array(z.string()).optional(),
    })
    .default(APP_DEFAULTS);
}

export const APP_FLAT_KEYS: SliceFlatKeys = {
  mode: { name: 'app-mode', specPath: ['app', 'mode'], read: 'string', help: 'app preStop and sidecar ordering: on or off', choices: APP_MODES },
  details: [{ name: 'app-image-has-shell', specPath: ['app', 'imageHasShell'], read: 'boolean', help: 'app images have /bin/sh and sleep (allows exec sleep on old clusters)' }],
};
