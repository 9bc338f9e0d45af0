/**
 * The kong-drain mutator's settings: `spec.kong` of the config, its defaults and its flat
 * keys. Imports only zod and fn/config's field helpers, so the config can compose it without
 * loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const KONG_MODES = ['on', 'off'] as const;

/** `spec.kong` when nothing sets it: the one place these values are written. */
const KONG_DEFAULTS = { mode: 'on' } as const;

function kongSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(KONG_MODES), KONG_DEFAULTS.mode),
    }),
    KONG_DEFAULTS,
  );
}

const KONG_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'kong-mode',
    specPath: ['kong', 'mode'],
    read: 'string',
    help: "Kong's drain through its proxy's preStop kong quit --wait and --timeout: on or off",
    choices: KONG_MODES,
  },
  details: [],
};

/** `spec.kong`: what fn/config composes (fn/config/slices.ts). */
export const KONG_SETTINGS = defineSlice({
  key: 'kong',
  defaults: KONG_DEFAULTS,
  schema: kongSettingsSchema,
  flatKeys: KONG_FLAT_KEYS,
});
