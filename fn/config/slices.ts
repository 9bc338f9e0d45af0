// Generated from fn/mutators/registry.ts by `npm run generate:slices`: do not edit.
// The settings slice of each registered mutator, in the registry's order, for fn/config to
// compose into the spec and the flat keys (fn/config/kit/slice.ts).
import { GATEWAY_SETTINGS } from '../mutators/gateway/settings/slice.ts';
import { TRAEFIK_SETTINGS } from '../mutators/traefik/settings/slice.ts';
import { INGRESS_NGINX_SETTINGS } from '../mutators/ingress-nginx/settings/slice.ts';
import { CONTOUR_SETTINGS } from '../mutators/contour/settings/slice.ts';
import { KONG_SETTINGS } from '../mutators/kong/settings/slice.ts';
import { JOB_SETTINGS } from '../mutators/job/settings/slice.ts';
import { APP_SETTINGS } from '../mutators/app/settings/slice.ts';
import { ENVOY_GATEWAY_SETTINGS } from '../mutators/envoy-gateway/settings/slice.ts';
import { ISTIO_GATEWAY_API_SETTINGS } from '../mutators/istio-gateway-api/settings/slice.ts';

export const SLICES = [
  GATEWAY_SETTINGS,
  TRAEFIK_SETTINGS,
  INGRESS_NGINX_SETTINGS,
  CONTOUR_SETTINGS,
  KONG_SETTINGS,
  JOB_SETTINGS,
  APP_SETTINGS,
  ENVOY_GATEWAY_SETTINGS,
  ISTIO_GATEWAY_API_SETTINGS,
] as const;
