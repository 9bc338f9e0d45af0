/**
 * The EnvoyProxy spec a proxy really runs with, where a mergeType makes Envoy Gateway merge it over
 * a less specific one (issue #27 item 7; ./merge.ts). The spec planned for an EnvoyProxy is then
 * the merged one: its load balancer may come from the class's envoyService, its shutdown values
 * from the class's spec, and a value is written on it only where the merged one falls short, so a
 * Gateway's EnvoyProxy never undercuts what its class's gets (the class's as planned in the same
 * run).
 *
 * The levels, as MergeEnvoyProxyConfigs takes them (internal/gatewayapi/envoyproxy_merge.go
 * @v1.9.0): step 1 merges the Gateway's EnvoyProxy over its GatewayClass's when the Gateway's
 * mergeType merges; step 2 merges that over the controller's default spec when the class's
 * mergeType (else the Gateway's) merges. Each merge keeps the override's fields and fills the rest
 * from the base, so the two steps equal one merge over the base built from the levels below.
 */
import { setAt } from '../../core/fieldPath.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { kubeObjectRef } from '../../timing/kubeObject.ts';
import { envoyProxyLocation, indexEnvoyGateway } from './attachment.ts';
import { readControllerConfig } from './controllerConfig.ts';
import { MERGE_TYPE, mergeSpecs, mergeTypeOf } from './merge.ts';
import type { EnvoyProxySpec, ParametersRef, SpecLocation } from './objects.ts';
import { scalarText } from '../../core/scalarText.ts';
import type { EnvoyGatewayChange, EnvoyGatewayFinding } from './outcome.ts';
import { reached } from '../../facts/versionGates.ts';

/** What lies under an EnvoyProxy's own fields, as written and as this run patches it. */
export interface MergeBase {
  /** The less specific specs it is merged over, for messages. */
  readonly label: string;
  readonly asWritten: EnvoyProxySpec;
  readonly patched: EnvoyProxySpec;
}

/** The spec to plan for one EnvoyProxy. */
export type EffectiveSpec =
  | { readonly kind: 'own'; readonly location: SpecLocation }
  | { readonly kind: 'merged'; readonly location: SpecLocation; readonly base: MergeBase }
  | { readonly kind: 'base-unknown'; readonly finding: EnvoyGatewayFinding };

/** The changes this run makes to a spec planned at `location` (./specPlan.ts). */
export type PlanChanges = (location: SpecLocation) => readonly EnvoyGatewayChange[];

/** Returns the spec Envoy Gateway gives the proxies of `proxy` (an EnvoyProxy object). */
export function effectiveSpec(
  proxy: KubeObject,
  objects: readonly KubeObject[],
  changesOf: PlanChanges,
): EffectiveSpec {
  const own = envoyProxyLocation(proxy);
  const configs = objects.map(readControllerConfig).flatMap((c) => (c.state === 'ok' ? [c] : []));
  const release = configs.find((c) => c.release !== undefined)?.release;
  // Before v1.8.0 the field does not exist: a more specific EnvoyProxy always replaces.
  if (release !== undefined && !reached(MERGE_TYPE, release)) return { kind: 'own', location: own };
  const index = indexEnvoyGateway(
    objects,
    configs.length > 0 ? configs.map((c) => c.controllerName) : undefined,
  );
  const defaultLocation = configs.find((c) => c.defaultSpec !== undefined)?.defaultSpec;
  // Planned only where a merge reaches it: most EnvoyProxies replace, and need none of it.
  let planned: MergeBase | undefined;
  const defaultBase: DefaultBase = () =>
    defaultLocation &&
    (planned ??= patchedBase(defaultLocation, defaultLocation.spec, 'the default spec', changesOf));
  // As a Gateway's own EnvoyProxy (the first Gateway that names it; see the docs' "Merged
  // EnvoyProxies" for one named by Gateways of several classes).
  const use = index.gateways.find((u) => index.gatewayProxy(u) === proxy);
  if (use !== undefined) {
    const classProxy = index.classProxy(use);
    let classBase: MergeBase | undefined;
    if (mergeTypeOf(own.spec) !== 'Replace' && use.classRef !== undefined) {
      if (classProxy === undefined) return baseUnknown(own, use.classRef);
      classBase = patchedBase(
        classLevel(classProxy, defaultBase).location,
        (classProxy.spec ?? {}) as EnvoyProxySpec,
        `its GatewayClass's EnvoyProxy ${kubeObjectRef(classProxy)}`,
        changesOf,
      );
    }
    const overDefault =
      mergeTypeOf(classProxy?.spec as EnvoyProxySpec | undefined, own.spec) !== 'Replace';
    const base = stack(overDefault ? defaultBase() : undefined, classBase);
    return base === undefined ? { kind: 'own', location: own } : mergedOver(own, base);
  }
  // As a GatewayClass's EnvoyProxy, or one nothing in the stream names.
  return classLevel(proxy, defaultBase);
}

/** The default spec as this run patches it, when the input holds one: planned on first use. */
type DefaultBase = () => MergeBase | undefined;

/** A class's EnvoyProxy: merged over the default spec when its own mergeType merges. */
function classLevel(
  proxy: KubeObject,
  defaultBase: DefaultBase,
): EffectiveSpec & {
  readonly location: SpecLocation;
} {
  const own = envoyProxyLocation(proxy);
  const base = mergeTypeOf(own.spec) !== 'Replace' ? defaultBase() : undefined;
  return base !== undefined ? mergedOver(own, base) : { kind: 'own', location: own };
}

/** The spec at `location` as written and with the changes this run makes to it. */
function patchedBase(
  location: SpecLocation,
  written: EnvoyProxySpec,
  label: string,
  changesOf: PlanChanges,
): MergeBase {
  let patched: unknown = written;
  for (const change of changesOf(location))
    patched = setAt(patched, change.path.slice(location.specPath.length), change.value);
  return { label, asWritten: written, patched: patched as EnvoyProxySpec };
}

/** `upper` merged over `lower`, either possibly absent. */
function stack(lower: MergeBase | undefined, upper: MergeBase | undefined): MergeBase | undefined {
  if (lower === undefined || upper === undefined) return upper ?? lower;
  return {
    label: `${upper.label}, over ${lower.label}`,
    asWritten: mergeSpecs(lower.asWritten, upper.asWritten),
    patched: mergeSpecs(lower.patched, upper.patched),
  };
}

function mergedOver(
  own: SpecLocation,
  base: MergeBase,
): EffectiveSpec & {
  readonly location: SpecLocation;
} {
  return {
    kind: 'merged',
    location: {
      label: `${own.label} (merged over ${base.label})`,
      spec: mergeSpecs(base.patched, own.spec),
      specPath: own.specPath,
    },
    base,
  };
}

function baseUnknown(own: SpecLocation, classRef: ParametersRef): EffectiveSpec {
  const namespace = classRef.namespace ? `${scalarText(classRef.namespace)}/` : '';
  return {
    kind: 'base-unknown',
    finding: {
      severity: 'warning',
      code: 'EG_MERGE_BASE_NOT_IN_STREAM',
      message:
        `${own.label} has mergeType ${scalarText(own.spec.mergeType)}: Envoy Gateway merges it ` +
        `over its GatewayClass's EnvoyProxy ${namespace}${scalarText(classRef.name)} ` +
        `(internal/gatewayapi/envoyproxy_merge.go@v1.9.0), which is not in this input. ` +
        `Nothing is written here: a shutdown value set on this EnvoyProxy wins over the ` +
        `class's, and could lower it. Render the class's EnvoyProxy together with it, or set ` +
        `spec.shutdown (minDrainDuration, drainTimeout) here by hand.`,
      path: ['spec', 'mergeType'],
    },
  };
}
