/**
 * The Traefik mutator's settings: `spec.traefik` of the config, its defaults and its flat keys.
 * Imports only zod and fn/config's field helpers, so the config can compose it without loading
 * the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const TRAEFIK_MODES = ['on', 'off'] as const;

/** `spec.traefik` when nothing sets it: the one place these values are written. */
const TRAEFIK_DEFAULTS = { mode: 'on' } as const;

function traefikSettingsSchema() {
  return z._default(
    z.strictObject({ mode: z._default(modeSwitch(TRAEFIK_MODES), TRAEFIK_DEFAULTS.mode) }),
    TRAEFIK_DEFAULTS,
  );
}

const TRAEFIK_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'traefik-mode',
    specPath: ['traefik', 'mode'],
    read: 'string',
    help: "Traefik drain through its entry points' lifeCycle settings: on or off",
    choices: TRAEFIK_MODES,
  },
  details: [],
};

/** `spec.traefik`: what fn/config composes (fn/config/slices.ts). */
export const TRAEFIK_SETTINGS = defineSlice({
  key: 'traefik',
  defaults: TRAEFIK_DEFAULTS,
  schema: traefikSettingsSchema,
  flatKeys: TRAEFIK_FLAT_KEYS,
});
