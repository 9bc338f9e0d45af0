/**
 * Envoy Gateway's own configuration, as the gateway-helm chart renders it: a ConfigMap
 * (`envoy-gateway-config`) whose key `envoy-gateway.yaml` holds an `EnvoyGateway` document as text
 * (charts/gateway-helm/templates/envoy-gateway-config.yaml@v1.9.0, `config.envoyGateway` merged
 * over the chart's defaults); the controller reads it from
 * `--config-path=/config/envoy-gateway.yaml`
 * (charts/gateway-helm/templates/envoy-gateway-deployment.yaml@v1.9.0). From v1.7.0 its field
 * `envoyProxy` is the default EnvoyProxy spec of every Gateway that has none of its own
 * (api/v1alpha1/envoygateway_types.go@v1.7.0 `EnvoyProxy *EnvoyProxySpec`; absent at v1.6.0).
 *
 * The controller decodes it with apimachinery's UniversalDeserializer, which ignores unknown
 * fields (internal/envoygateway/config/decoder.go@v1.9.0 `DecodeBytes`): an `envoyProxy` added to
 * a config read by a release before v1.7.0 would be dropped without a word. So kube-graceful
 * edits the default spec only where the config already has one, never adds it, and leaves it
 * alone where the chart's labels name a release before v1.7.0 (api/v1alpha1/envoygateway_types.go
 * @v1.6.7 has no `EnvoyProxy` field; issue #27 item 9): the chart renders it there all the same,
 * and the controller ignores it.
 *
 * The text is read and edited as a manifest of its own (fn/document): the edits are minimal text
 * splices, checked to read back as exactly the fields set, so every other key, comment and quote
 * the user or the chart wrote stays.
 */
import { ManifestDocument } from '../../document/manifest.ts';
import type { FieldPath } from '../../core/fieldPath.ts';
import { labelsOf } from '../../core/kubeObject.ts';
import type { KubeObject } from '../../core/kubeObject.ts';
import { ENVOY_GATEWAY_CONTROLLER } from './facts.ts';
import type { SpecLocation } from './objects.ts';
import { defaultSpecLocation } from './attachment.ts';
import { reached } from '../../facts/versionGates.ts';
import type { VersionGate } from '../../facts/versionGates.ts';

/** The ConfigMap key the chart writes the EnvoyGateway config under. */
export const CONTROLLER_CONFIG_KEY = 'envoy-gateway.yaml';
export const CONTROLLER_CONFIG_PATH: FieldPath = ['data', CONTROLLER_CONFIG_KEY];

/** A ConfigMap as read: not Envoy Gateway's config, its config, or a config that cannot be read. */
export type ControllerConfig =
  | { readonly state: 'none' }
  | { readonly state: 'unreadable'; readonly problem: string }
  | {
      readonly state: 'ok';
      readonly text: string;
      /** The EnvoyGateway document as plain data. */
      readonly config: Record<string, unknown>;
      /** gateway.controllerName, the GatewayClass controller it answers to (when not set,
       * `GatewayControllerName`, api/v1alpha1/envoygateway_types.go@v1.9.0, as
       * envoygateway_helpers.go@v1.9.0 defaults it). */
      readonly controllerName: string;
      /** The default EnvoyProxy spec (`envoyProxy`), when the config has one its release reads. */
      readonly defaultSpec?: SpecLocation;
      /** The release before v1.7.0 whose controller ignores the `envoyProxy` the config has. */
      readonly ignoredBy?: string;
      /** The Envoy Gateway release the chart's labels name (`1.9.0`), when they name one. */
      readonly release?: string;
    };

/** The first release whose controller reads `envoyProxy`. */
export const DEFAULT_SPEC = {
  product: 'Envoy Gateway',
  since: '1.7.0',
  source: 'envoyproxy/gateway api/v1alpha1/envoygateway_types.go@v1.7.0 (EnvoyProxy)',
} as const satisfies VersionGate;

/**
 * The Envoy Gateway release the chart's labels name on its ConfigMap (`app.kubernetes.io/version:
 * "v1.9.0"`, `helm.sh/chart: gateway-helm-v1.9.0`; charts/gateway-helm/templates/_helpers.tpl),
 * or undefined.
 */
function chartRelease(configMap: KubeObject): string | undefined {
  const labels = labelsOf(configMap.metadata);
  const text =
    labels['app.kubernetes.io/version'] ??
    /^gateway-helm-(.+)$/.exec(labels['helm.sh/chart'] ?? '')?.[1];
  return /^v?(\d+\.\d+\.\d+)$/.exec(text ?? '')?.[1];
}

/** Returns true for a core-group ConfigMap (`apiVersion: v1`). */
export function isConfigMap(object: KubeObject): boolean {
  return object.kind === 'ConfigMap' && object.apiVersion === 'v1';
}

/**
 * Reads `configMap` as Envoy Gateway's config: a ConfigMap with the key `envoy-gateway.yaml`
 * holding a document of kind `EnvoyGateway` (any other ConfigMap is `none`).
 */
export function readControllerConfig(configMap: KubeObject): ControllerConfig {
  if (!isConfigMap(configMap)) return { state: 'none' };
  const text = (configMap as { data?: Record<string, unknown> | null }).data?.[
    CONTROLLER_CONFIG_KEY
  ];
  if (typeof text !== 'string' || !/^kind:\s*EnvoyGateway\s*$/m.test(text))
    return { state: 'none' };
  let data: unknown;
  try {
    data = new ManifestDocument(text, { document: 1, line: 0 }).data;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { state: 'unreadable', problem: `it is not valid YAML (${message})` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return { state: 'unreadable', problem: 'it is not a mapping' };
  const config = data as Record<string, unknown>;
  if (config['kind'] !== 'EnvoyGateway') return { state: 'none' };
  const gateway = config['gateway'] as { controllerName?: unknown } | null | undefined;
  const controllerName =
    typeof gateway?.controllerName === 'string' ? gateway.controllerName : ENVOY_GATEWAY_CONTROLLER;
  const defaultSpec = defaultSpecLocation(configMap, config);
  const release = chartRelease(configMap);
  const ignoredBy =
    defaultSpec && release !== undefined && !reached(DEFAULT_SPEC, release)
      ? `v${release}`
      : undefined;
  return {
    state: 'ok',
    text,
    config,
    controllerName,
    ...(defaultSpec && !ignoredBy ? { defaultSpec } : {}),
    ...(ignoredBy ? { ignoredBy } : {}),
    ...(release !== undefined ? { release } : {}),
  };
}

/** The Envoy Gateway release named by the chart labels of a controller config in `objects`. */
export function controllerRelease(objects: readonly KubeObject[]): string | undefined {
  for (const object of objects) {
    const config = readControllerConfig(object);
    if (config.state === 'ok' && config.release !== undefined) return config.release;
  }
  return undefined;
}

/**
 * Returns the config text with each field set (paths from the EnvoyGateway document's root) as
 * minimal, verified text edits.
 */
export function editControllerConfig(
  text: string,
  fields: ReadonlyArray<{ readonly path: FieldPath; readonly value: unknown }>,
): string {
  const document = new ManifestDocument(text, { document: 1, line: 0 });
  for (const { path, value } of fields) document.set(path, value);
  return document.text;
}
