/**
 * The gateway mutator's settings: `spec.gateway` of the config, its defaults and its flat keys.
 * Imports only zod and fn/config's field helpers, so the config can compose it without loading
 * the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const GATEWAY_MODES = ['env', 'sleep', 'off'] as const;

/** `spec.gateway` when nothing sets it: the one place these values are written. */
const GATEWAY_DEFAULTS = { mode: 'env', imageHasShell: false } as const;

function gatewaySettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(GATEWAY_MODES), GATEWAY_DEFAULTS.mode),
      imageHasShell: z._default(z.boolean(), GATEWAY_DEFAULTS.imageHasShell),
    }),
    GATEWAY_DEFAULTS,
  );
}

const GATEWAY_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'gateway-mode',
    specPath: ['gateway', 'mode'],
    read: 'string',
    help: 'gateway drain: env (Istio drain settings), sleep (preStop), off',
    choices: GATEWAY_MODES,
  },
  details: [
    {
      name: 'gateway-image-has-shell',
      specPath: ['gateway', 'imageHasShell'],
      read: 'boolean',
      help: 'the gateway image has /bin/sh and sleep (allows exec sleep)',
    },
  ],
};

/** `spec.gateway`: what fn/config composes (fn/config/slices.ts). */
export const GATEWAY_SETTINGS = defineSlice({
  key: 'gateway',
  defaults: GATEWAY_DEFAULTS,
  schema: gatewaySettingsSchema,
  flatKeys: GATEWAY_FLAT_KEYS,
});
