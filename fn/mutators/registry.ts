/**
 * The mutators, in the order they run: the one list. Mutator ids, `explain`'s dispatch, the
 * meta-test (test/mutators/registry.test.ts) and the config read it; the settings slices
 * (fn/config/slices.ts) and the docs that list mutators are generated from it by
 * `npm run golden:update` (docs/ARCHITECTURE.md, "Worked example").
 */
import { appGraceful } from './app/index.ts';
import { envoyGateway } from './envoy-gateway/index.ts';
import { gatewayDrain } from './gateway/index.ts';
import { istioGatewayApi } from './istio-gateway-api/index.ts';
import { jobSidecarQuit } from './job/index.ts';
import { traefikDrain } from './traefik/index.ts';
import { ingressNginxDrain } from './ingress-nginx/index.ts';
import { contourDrain } from './contour/index.ts';
import { kongDrain } from './kong/index.ts';
import type { RegisteredMutator } from './types.ts';

export const MUTATORS = [
  gatewayDrain,
  traefikDrain,
  ingressNginxDrain,
  contourDrain,
  kongDrain,
  jobSidecarQuit,
  appGraceful,
  envoyGateway,
  istioGatewayApi,
] as const satisfies readonly RegisteredMutator[];

/**
 * The id of a registered mutator: the type a caller outside the tree names an id with (marked
 * public so that knip keeps the export).
 * @public
 */
export type MutatorId = (typeof MUTATORS)[number]['id'];
