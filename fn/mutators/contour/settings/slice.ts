/**
 * The contour-drain mutator's settings: `spec.contour` of the config, its defaults and its flat
 * keys. Imports only zod and fn/config's field helpers, so the config can compose it without
 * loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const CONTOUR_MODES = ['on', 'off'] as const;

/** `spec.contour` when nothing sets it: the one place these values are written. */
const CONTOUR_DEFAULTS = { mode: 'on' } as const;

function contourSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(CONTOUR_MODES), CONTOUR_DEFAULTS.mode),
    }),
    CONTOUR_DEFAULTS,
  );
}

const CONTOUR_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'contour-mode',
    specPath: ['contour', 'mode'],
    read: 'string',
    help: "Contour's Envoy drain through its shutdown-manager's --check-delay: on or off",
    choices: CONTOUR_MODES,
  },
  details: [],
};

/** `spec.contour`: what fn/config composes (fn/config/slices.ts). */
export const CONTOUR_SETTINGS = defineSlice({
  key: 'contour',
  defaults: CONTOUR_DEFAULTS,
  schema: contourSettingsSchema,
  flatKeys: CONTOUR_FLAT_KEYS,
});
