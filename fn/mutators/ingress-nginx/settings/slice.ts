/**
 * The ingress-nginx mutator's settings: `spec.ingressNginx` of the config, its defaults and its
 * flat keys. Imports only zod and fn/config's field helpers, so the config can compose it without
 * loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const INGRESS_NGINX_MODES = ['on', 'off'] as const;

/** `spec.ingressNginx` when nothing sets it: the one place these values are written. */
const INGRESS_NGINX_DEFAULTS = { mode: 'on' } as const;

function ingressNginxSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(INGRESS_NGINX_MODES), INGRESS_NGINX_DEFAULTS.mode),
    }),
    INGRESS_NGINX_DEFAULTS,
  );
}

const INGRESS_NGINX_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'ingress-nginx-mode',
    specPath: ['ingressNginx', 'mode'],
    read: 'string',
    help: "ingress-nginx drain through the controller's --shutdown-grace-period: on or off",
    choices: INGRESS_NGINX_MODES,
  },
  details: [],
};

/** `spec.ingressNginx`: what fn/config composes (fn/config/slices.ts). */
export const INGRESS_NGINX_SETTINGS = defineSlice({
  key: 'ingressNginx',
  defaults: INGRESS_NGINX_DEFAULTS,
  schema: ingressNginxSettingsSchema,
  flatKeys: INGRESS_NGINX_FLAT_KEYS,
});
