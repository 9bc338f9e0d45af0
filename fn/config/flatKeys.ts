/**
 * Flat settings, one name each: the CLI flags (`--kube-version 1.31`) and the `data` keys of a
 * ConfigMap functionConfig (`kpt fn eval … -- kube-version=1.31`) use the same names, so what a
 * user learns in one place works in the other. The settings of the whole run are here; each
 * mutator's come from its settings slice (fn/config/slices.ts, in the registry's order).
 */

import { SLICES } from './slices.ts';
import type { FlatKey } from './kit/flatKey.ts';
import { LOAD_BALANCER_PROVIDERS } from './providers.ts';
import { NODE_SHUTDOWN_PRESET_NAMES } from '../timing/nodeShutdown.ts';

export type { FlatKey } from './kit/flatKey.ts';
export { readFlatValue } from './kit/flatKey.ts';

const VERSION_KEYS: readonly FlatKey[] = [
  {
    name: 'kube-version',
    specPath: ['kubernetesVersion'],
    read: 'string',
    help:
      'Kubernetes version of the oldest kubelet (1.31, 1.31.4 or v1.31.4): ' +
      'pod features are used only where it has them on by default',
  },
  {
    name: 'istio-version',
    specPath: ['istioVersion'],
    read: 'string',
    help: 'Istio version when the stream does not say (X.Y)',
  },
  {
    name: 'linkerd-version',
    specPath: ['linkerdVersion'],
    read: 'string',
    help: 'Linkerd version (X.Y)',
  },
  {
    name: 'sidecar-mode',
    specPath: ['sidecarMode'],
    read: 'string',
    help: 'mesh sidecars: native (Kubernetes sidecar containers), classic, or auto by version',
    choices: ['auto', 'native', 'classic'],
  },
];

const TIMING_AND_MESH_KEYS: readonly FlatKey[] = [
  {
    name: 'lb-provider',
    specPath: ['loadBalancer', 'provider'],
    read: 'string',
    help: 'load balancer in front of the pods when the stream does not show it',
    choices: LOAD_BALANCER_PROVIDERS,
  },
  {
    name: 'drain-window',
    specPath: ['loadBalancer', 'drainWindowSeconds'],
    read: 'seconds',
    help: 'W: seconds new traffic may still arrive after termination starts',
  },
  {
    name: 'max-request',
    specPath: ['timing', 'maxRequestSeconds'],
    read: 'seconds',
    help: 'R: longest request to finish after traffic stops (default 20)',
  },
  {
    name: 'buffer',
    specPath: ['timing', 'bufferSeconds'],
    read: 'seconds',
    help: 'B: safety buffer in seconds (default 5)',
  },
  {
    name: 'node-shutdown-budget',
    specPath: ['timing', 'nodeShutdownBudgetSeconds'],
    read: 'seconds',
    help: 'seconds a node gives its pods when it goes away (120 for a Spot notice)',
  },
  {
    name: 'node-shutdown-preset',
    specPath: ['timing', 'nodeShutdownPreset'],
    read: 'string',
    help:
      "the node budget of a provider's interruptible capacity: aws-spot (120 s), gke-spot " +
      '(15 s); node-shutdown-budget wins',
    choices: NODE_SHUTDOWN_PRESET_NAMES,
  },
  {
    name: 'namespace',
    specPath: ['namespace'],
    read: 'string',
    help: 'namespace of resources that name none',
  },
  {
    name: 'istio-injected-namespaces',
    specPath: ['mesh', 'istioInjectedNamespaces'],
    read: 'list',
    help: 'comma-separated namespaces with Istio injection on',
  },
  {
    name: 'linkerd-injected-namespaces',
    specPath: ['mesh', 'linkerdInjectedNamespaces'],
    read: 'list',
    help: 'comma-separated namespaces with Linkerd injection on',
  },
];

/**
 * Every flat key, in `--help` order: versions, the mode switches, timing and mesh, then the rest of
 * each mutator's.
 */
export const FLAT_KEYS: readonly FlatKey[] = [
  ...VERSION_KEYS,
  ...SLICES.map((slice) => slice.flatKeys.mode),
  ...TIMING_AND_MESH_KEYS,
  ...SLICES.flatMap((slice) => slice.flatKeys.details),
];
