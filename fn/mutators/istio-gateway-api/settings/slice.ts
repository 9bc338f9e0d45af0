/**
 * The istio-gateway-api mutator's settings: `spec.istioGatewayApi` of the config, its defaults and
 * its flat keys. Imports only zod and fn/config's field helpers, so the config can compose it
 * without loading the mutator.
 */
import * as z from 'zod/mini';
import { modeSwitch } from '../../../config/kit/fields.ts';
import type { SliceFlatKeys } from '../../../config/kit/flatKey.ts';
import { defineSlice } from '../../../config/kit/slice.ts';

const ISTIO_GATEWAY_API_MODES = ['on', 'off'] as const;

/**
 * `spec.istioGatewayApi` when nothing sets it: the one place these values are written. istiod reads
 * class-defaults ConfigMaps in its own namespace only (deploymentcontroller.go@1.26.8), which the
 * istiod chart's documented install puts in `istio-system`.
 */
const ISTIO_GATEWAY_API_DEFAULTS = { mode: 'on', istiodNamespace: 'istio-system' } as const;

function istioGatewayApiSettingsSchema() {
  return z._default(
    z.strictObject({
      mode: z._default(modeSwitch(ISTIO_GATEWAY_API_MODES), ISTIO_GATEWAY_API_DEFAULTS.mode),
      istiodNamespace: z._default(z.string(), ISTIO_GATEWAY_API_DEFAULTS.istiodNamespace),
    }),
    ISTIO_GATEWAY_API_DEFAULTS,
  );
}

const ISTIO_GATEWAY_API_FLAT_KEYS: SliceFlatKeys = {
  mode: {
    name: 'istio-gateway-api-mode',
    specPath: ['istioGatewayApi', 'mode'],
    read: 'string',
    help:
      "Gateway API gateways istiod deploys: write the drain settings into the Gateway's " +
      'parameters ConfigMap (on), or leave them alone (off)',
    choices: ISTIO_GATEWAY_API_MODES,
  },
  details: [
    {
      name: 'istiod-namespace',
      specPath: ['istioGatewayApi', 'istiodNamespace'],
      read: 'string',
      help: "istiod's namespace, where it reads class-defaults ConfigMaps (default istio-system)",
    },
  ],
};

/** `spec.istioGatewayApi`: what fn/config composes (fn/config/slices.ts). */
export const ISTIO_GATEWAY_API_SETTINGS = defineSlice({
  key: 'istioGatewayApi',
  defaults: ISTIO_GATEWAY_API_DEFAULTS,
  schema: istioGatewayApiSettingsSchema,
  flatKeys: ISTIO_GATEWAY_API_FLAT_KEYS,
});
