/**
 * Flat settings, one name each: the CLI flags (`--kube-version 1.31`) and the `data` keys of a
 * ConfigMap functionConfig (`kpt fn eval … -- kube-version=1.31`) use the same names, so what a
 * user learns in one place works in the other.
 */

import { LOAD_BALANCER_PROVIDERS } from './providers.ts';

/** How a flat value is read from text. */
type Reader = 'string' | 'seconds' | 'boolean' | 'list';

/** A flat setting: its name, the spec field it sets, how it is read and what it means. */
export interface FlatKey {
  readonly name: string;
  readonly specPath: readonly string[];
  readonly read: Reader;
  readonly help: string;
  readonly choices?: readonly string[];
}

export const FLAT_KEYS: readonly FlatKey[] = [
  { name: 'kube-version', specPath: ['kubernetesVersion'], read: 'string', help: 'Kubernetes version of the oldest kubelet (1.31, 1.31.4 or v1.31.4): pod features are used only where it has them on by default' },
  { name: 'istio-version', specPath: ['istioVersion'], read: 'string', help: 'Istio version when the stream does not say (X.Y)' },
  { name: 'linkerd-version', specPath: ['linkerdVersion'], read: 'string', help: 'Linkerd version (X.Y)' },
  { name: 'sidecar-mode', specPath: ['sidecarMode'], read: 'string', help: 'mesh sidecars: native (Kubernetes sidecar containers), classic, or auto by version', choices: ['auto', 'native', 'classic'] },
  { name: 'gateway-mode', specPath: ['gateway', 'mode'], read: 'string', help: 'gateway drain: env (Istio drain settings), sleep (preStop), off', choices: ['env', 'sleep', 'off'] },
  { name: 'job-mode', specPath: ['job', 'mode'], read: 'string', help: 'Job sidecar quit: native, wrap (command wrapper), auto, off', choices: ['auto', 'native', 'wrap', 'off'] },
  { name: 'traefik-mode', specPath: ['traefik', 'mode'], read: 'string', help: "Traefik drain through its entry points' lifeCycle settings: on or off", choices: ['on', 'off'] },
  { name: 'app-mode', specPath: ['app', 'mode'], read: 'string', help: 'app preStop and sidecar ordering: on or off', choices: ['on', 'off'] },
  { name: 'lb-provider', specPath: ['loadBalancer', 'provider'], read: 'string', help: 'load balancer in front of the pods when the stream does not show it', choices: LOAD_BALANCER_PROVIDERS },
  { name: 'drain-window', specPath: ['loadBalancer', 'drainWindowSeconds'], read: 'seconds', help: 'W: seconds new traffic may still arrive after termination starts' },
  { name: 'max-request', specPath: ['timing', 'maxRequestSeconds'], read: 'seconds', help: 'R: longest request to finish after traffic stops (default 20)' },
  { name: 'buffer', specPath: ['timing', 'bufferSeconds'], read: 'seconds', help: 'B: safety buffer in seconds (default 5)' },
  { name: 'namespace', specPath: ['namespace'], read: 'string', help: 'namespace of resources that name none' },
  { name: 'istio-injected-namespaces', specPath: ['mesh', 'istioInjectedNamespaces'], read: 'list', help: 'comma-separated namespaces with Istio injection on' },
  { name: 'linkerd-injected-namespaces', specPath: ['mesh', 'linkerdInjectedNamespaces'], read: 'list', help: 'comma-separated namespaces with Linkerd injection on' },
  { name: 'gateway-image-has-shell', specPath: ['gateway', 'imageHasShell'], read: 'boolean', help: 'the gateway image has /bin/sh and sleep (allows exec sleep)' },
  { name: 'job-image-has-shell', specPath: ['job', 'imageHasShell'], read: 'boolean', help: 'Job images have /bin/sh for the wrap mode (overrides the list of images known to have none)' },
  { name: 'job-image-has-http-client', specPath: ['job', 'imageHasHttpClient'], read: 'boolean', help: 'Job images have curl or wget for the wrap mode quit call (overrides the list of known images)' },
  { name: 'app-image-has-shell', specPath: ['app', 'imageHasShell'], read: 'boolean', help: 'app images have /bin/sh and sleep (allows exec sleep on old clusters)' },
];

/** Returns the typed value of a flat setting's text, or an error message saying what is allowed. */
export function readFlatValue(key: FlatKey, text: string): { value: unknown } | { error: string } {
  switch (key.read) {
    case 'string':
      // The same answer for a flag, a ConfigMap key and an annotation: the name the user wrote,
      // the value, and what is allowed (not the schema path it maps to).
      if (key.choices && !key.choices.includes(text)) return { error: `${key.name}: got ${JSON.stringify(text)}; expected one of ${key.choices.join(', ')}` };
      return { value: text };
    case 'list':
      return { value: text.split(',').map((s) => s.trim()).filter(Boolean) };
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: `${key.name}: got ${JSON.stringify(text)}; expected true or false` };
    case 'seconds': {
      const match = /^(\d+)s?$/.exec(text.trim());
      if (!match) return { error: `${key.name}: got ${JSON.stringify(text)}; expected whole seconds, e.g. 180` };
      return { value: Number(match[1]) };
    }
  }
}
