/**
 * The version gates (fn/facts/versionGates.ts): each names where it was read, and a gate holds
 * from its first version on, whatever the patch level or `v` prefix the version is written with.
 */
import test from 'ava';
import { ISTIO, KUBERNETES, LINKERD, reached } from '../../fn/facts/versionGates.ts';
import type { VersionGate } from '../../fn/facts/versionGates.ts';

const GATES: ReadonlyArray<[string, VersionGate]> = [KUBERNETES, ISTIO, LINKERD].flatMap((group) =>
  Object.entries(group),
);

test('every gate names an upstream file@tag, a KEP or a release', (t) => {
  for (const [name, gate] of GATES)
    t.regex(gate.source, /@([a-z-]+-)?(v?\d|version-)|KEP-\d|#\d|https:\/\//, name);
});

test('a gate holds from its first version on and not before', (t) => {
  for (const [name, gate] of GATES) {
    const [major, minor] = gate.since.split('.').map(Number) as [number, number];
    t.true(reached(gate, gate.since), `${name} at ${gate.since}`);
    t.true(reached(gate, `${major}.${minor}.7`), `${name} at a patch release`);
    t.true(reached(gate, `${major}.${minor + 1}`), `${name} one minor later`);
    t.false(reached(gate, `${major}.${minor - 1}.99`), `${name} one minor before`);
  }
});

test('the thresholds the checks and the decisions share', (t) => {
  // The numbers the compatibility table prints (docs/compatibility.md): a change here is a change
  // of fact, to be read in upstream source first.
  t.deepEqual(
    GATES.map(([name, gate]) => `${gate.product} ${name} ${gate.since}`),
    [
      'Kubernetes nativeSidecars 1.29',
      'Kubernetes sleepAction 1.30',
      'Kubernetes sleepZero 1.33',
      'Kubernetes proxyTerminatingEndpoints 1.26',
      'Istio terminationDrainSecondsRemoved 1.10',
      'Istio exitOnZero 1.12',
      'Istio parentShutdownIgnored 1.17',
      'Istio nativeAnnotation 1.24',
      'Istio nativeAuto 1.27',
      'Kubernetes nativeAutoKubelet 1.33',
      'Istio quitSkipsDrain 1.26',
      'Linkerd shutdownEndpoint 2.10',
      'Linkerd adminShutdownOptIn 2.16',
      'Linkerd nativeAlpha 2.15',
      'Linkerd nativeBeta 2.19',
      'Linkerd nativeDefault 2.20',
    ],
  );
});
