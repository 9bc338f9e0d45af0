/**
 * The envoy-gateway mutator's settings: `spec.envoyGateway` of the config, its default and its
 * flat key. Imports only zod and fn/config's field helpers, so the config can compose it without
 * loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const ENVOY_GATEWAY_MODES = ['on', 'off'] as const;

/** `spec.envoyGateway` when nothing sets it: the one place this value is written. */
const ENVOY_GATEWAY_DEFAULTS = { mode: 'on' } as const;

function envoyGatewaySettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(ENVOY_GATEWAY_MODES), ENVOY_GATEWAY_DEFAULTS.mode),
    }),
    ENVOY_GATEWAY_DEFAULTS,
  );
}

const ENVOY_GATEWAY_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'envoy-gateway-mode',
    specPath: ['envoyGateway', 'mode'],
    read: 'string',
    help:
      'Envoy Gateway: set EnvoyProxy spec.shutdown from the timing model (on), ' +
      'or leave EnvoyProxies alone (off)',
    choices: ENVOY_GATEWAY_MODES,
  },
  details: [],
};

/** `spec.envoyGateway`: what fn/config composes (fn/config/slices.ts). */
export const ENVOY_GATEWAY_SETTINGS = defineSlice({
  key: 'envoyGateway',
  defaults: ENVOY_GATEWAY_DEFAULTS,
  schema: envoyGatewaySettingsSchema,
  flatKeys: ENVOY_GATEWAY_FLAT_KEYS,
});
