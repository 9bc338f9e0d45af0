/**
 * The AWS Load Balancer Controller's Gateway API support (v2.13.0+): a Gateway of a GatewayClass
 * whose controllerName is `gateway.k8s.aws/alb` (an ALB, L7 routes) or `gateway.k8s.aws/nlb` (an
 * NLB, L4 routes) sends straight to the pods behind each route's Service, in a target group per
 * route and Service shaped by the TargetGroupConfiguration that targets the Service. Facts from
 * kubernetes-sigs/aws-load-balancer-controller @v2.17.1:
 * - pkg/gateway/constants/controller_constants.go: the two controller names;
 * - pkg/gateway/routeutils/backend.go LookUpTargetGroupConfiguration: the configuration in the
 *   Service's namespace whose targetReference names it (kind Service when unset);
 * - pkg/gateway/tg_config_constructor.go: its defaultConfiguration, with the most specific
 *   routeConfigurations entry (kind:namespace:name, then kind:namespace, then kind) laid over it,
 *   field by field, attributes key by key;
 * - pkg/gateway/model/model_build_target_group.go: targetType from it, else the controller's
 *   --default-target-type (instance, pkg/config/controller_config.go); the attributes as written,
 *   none by default (so AWS's own defaults); for an NLB with instance targets and
 *   externalTrafficPolicy Local, a node health check of 10 s × 2 unless healthCheckConfig says.
 * From v3.2.0 a LoadBalancerConfiguration (the GatewayClass's parametersRef, the Gateway's
 * infrastructure.parametersRef) may name a defaultTargetGroupConfiguration, a configuration without
 * targetReference in its namespace: the two defaults merge by the class's mergingMode
 * (prefer-gateway-class unless prefer-gateway), and the Service's own configuration is laid over
 * the result, field by field (controllers/gateway/config_resolver.go, pkg/gateway/
 * tg_config_constructor.go MergeDefaultTGCs and MergeProps, pkg/gateway/routeutils/
 * backend_service.go@v3.2.0 … @v3.5.0). Its other fields (listeners, load-balancer attributes) do
 * not change when a target stops receiving.
 */
import type { KubeObject } from '../core/kubeObject.ts';
import { specField } from '../core/kubeObject.ts';
import { kubeObjectRef } from './kubeObject.ts';
import { targetGroupAttributesOf } from './awsTargetGroup.ts';
import type { AttributeEntry } from './awsTargetGroup.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { LOAD_BALANCERS, recognitionFor as recognition } from './loadBalancerTable.ts';

/** The GatewayClass controller names the AWS Load Balancer Controller owns, and what each makes. */
const AWS_GATEWAY_CONTROLLERS: Readonly<Record<string, AwsGatewayKind>> = {
  'gateway.k8s.aws/alb': 'ALB',
  'gateway.k8s.aws/nlb': 'NLB',
};

/** What an AWS Gateway makes in front of its routes' pods. */
type AwsGatewayKind = 'ALB' | 'NLB';

/** Returns what a GatewayClass of this controller name makes, or undefined if not AWS's. */
export function awsGatewayKind(controllerName: unknown): AwsGatewayKind | undefined {
  return typeof controllerName === 'string' &&
    Object.hasOwn(AWS_GATEWAY_CONTROLLERS, controllerName)
    ? AWS_GATEWAY_CONTROLLERS[controllerName]
    : undefined;
}

/** The route that reaches the Service through an AWS Gateway, and what configures its group. */
export interface AwsGatewayPath {
  readonly service: KubeObject;
  readonly route: KubeObject;
  readonly gateway: KubeObject;
  readonly gatewayClass: KubeObject;
  /** What the GatewayClass's controller makes (awsGatewayKind). */
  readonly kind: AwsGatewayKind;
  /** The TargetGroupConfiguration that targets the Service, if the stream holds one. */
  readonly targetGroupConfiguration?: KubeObject;
  /** The defaults the Gateway's LoadBalancerConfigurations name (v3.2.0+), merged. */
  readonly gatewayDefault?: GatewayDefault;
}

/** A LoadBalancerConfiguration's defaultTargetGroupConfiguration, as the Gateway resolves it. */
export interface GatewayDefault {
  /** The configurations that make it, `TargetGroupConfiguration ns/name`, high priority first. */
  readonly names: readonly string[];
  /** Their defaultConfiguration merged, and the high-priority one's routeConfigurations. */
  readonly spec: { readonly defaultConfiguration: unknown; readonly routeConfigurations: unknown };
}

/** TargetGroupProps as parsed: only the fields that decide when a target stops receiving. */
interface TargetGroupProps {
  targetType?: unknown;
  targetGroupAttributes?: unknown;
  healthCheckConfig?: { healthCheckInterval?: unknown; unhealthyThresholdCount?: unknown } | null;
}

/** Returns the load balancer an AWS Gateway puts in front of the pods of `path.service`. */
export function recognizeAwsGateway(path: AwsGatewayPath): LoadBalancerRecognition {
  const controller = String(specField(path.gatewayClass, 'controllerName'));
  const lb = path.kind;
  const config = path.targetGroupConfiguration;
  const props = mergeProps(
    config
      ? propsFor(
          specField(config, 'defaultConfiguration'),
          specField(config, 'routeConfigurations'),
          path.route,
        )
      : {},
    path.gatewayDefault
      ? propsFor(
          path.gatewayDefault.spec.defaultConfiguration,
          path.gatewayDefault.spec.routeConfigurations,
          path.route,
        )
      : {},
  );
  const configured = props.targetType === 'ip' || props.targetType === 'instance';
  const targetType = configured ? (props.targetType as 'ip' | 'instance') : 'instance';
  const subject = `Gateway ${kubeObjectRef(path.gateway)}`;
  const what =
    `${subject}: AWS ${lb} (GatewayClass ${path.gatewayClass.metadata?.name}: controllerName ` +
    `${controller}) via ${path.route.kind} ${kubeObjectRef(path.route)}, ` +
    `${targetType === 'ip' ? 'IP' : 'instance'} targets ` +
    (configured
      ? `(${configurationsOf(path).join(' over ')}: targetType ${targetType})`
      : `(no targetType: the controller's --default-target-type)`);
  const notes = configured
    ? []
    : [
        `${path.route.kind} ${kubeObjectRef(path.route)} reaches Service ` +
          `${kubeObjectRef(path.service)} with no targetType set: the AWS Load Balancer ` +
          `Controller uses its --default-target-type, instance unless started with another ` +
          `(pkg/config/controller_config.go@v2.17.1); assumed instance targets. Set targetType ` +
          `in a TargetGroupConfiguration for the Service to make it certain.`,
      ];
  const group = {
    targetGroup: targetGroupAttributesOf(attributeEntries(props.targetGroupAttributes)),
    // The Service's own configuration wins over the Gateway's defaults: the place to set it.
    targetGroupAttributesIn: config
      ? `the targetGroupAttributes of TargetGroupConfiguration ${kubeObjectRef(config)}`
      : `the targetGroupAttributes of a TargetGroupConfiguration for Service ` +
        kubeObjectRef(path.service),
  };
  const extra = { subject, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
  if (targetType === 'ip')
    return recognition(lb === 'ALB' ? 'aws-alb-ip' : 'aws-nlb-ip', what, {
      ...extra,
      ...group,
      targetType: 'ip',
    });
  if (lb === 'ALB') {
    // As for an ALB Ingress with instance targets (ingressLoadBalancer.ts): no measured window;
    // the IP-target one is the longer reading.
    const assumed =
      `No measured window for an ALB with instance targets; using the IP-target window ` +
      `(${LOAD_BALANCERS['aws-alb-ip'].drainWindowSeconds} s) as the conservative choice.`;
    return recognition('aws-alb-ip', what, {
      ...extra,
      targetType: 'instance',
      note: [...notes, assumed].join(' '),
    });
  }
  return nlbNodeTargets(path.service, what, props, extra);
}

/**
 * An NLB whose targets are the nodes: kube-proxy's endpoint update, plus with
 * externalTrafficPolicy Local the NLB's node health check failing (serviceLoadBalancer.ts
 * recognizeNodeTargets is the Service annotations' counterpart).
 */
function nlbNodeTargets(
  service: KubeObject,
  what: string,
  props: TargetGroupProps,
  extra: Pick<LoadBalancerRecognition, 'subject' | 'note'>,
): LoadBalancerRecognition {
  const propagation = LOAD_BALANCERS['in-cluster'].drainWindowSeconds;
  const base = `${what}; targets are nodes, so a pod's deletion deregisters nothing`;
  const fields = { ...extra, targetType: 'instance' as const };
  if (specField(service, 'externalTrafficPolicy') !== 'Local')
    return recognition(
      'aws-nlb-instance',
      `${base}; externalTrafficPolicy Cluster: only kube-proxy's endpoint update ` +
        `(≈ ${propagation} s)`,
      { drainWindowSeconds: propagation, ...fields },
    );
  const check = props.healthCheckConfig ?? {};
  const interval = wholeOr(check.healthCheckInterval, 10);
  const threshold = wholeOr(check.unhealthyThresholdCount, 2);
  const seconds = propagation + interval.value * threshold.value;
  return recognition(
    'aws-nlb-instance',
    `${base}; externalTrafficPolicy Local: the NLB stops sending to the node after its health ` +
      `check fails: W = propagation + interval × unhealthy threshold = ${propagation} + ` +
      `${interval.value} (${interval.from}) × ${threshold.value} (${threshold.from}) = ` +
      `${seconds} s`,
    { drainWindowSeconds: seconds, nodeLocal: true, ...fields },
  );
}

function wholeOr(value: unknown, fallback: number): { value: number; from: string } {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? { value, from: 'healthCheckConfig' }
    : { value: fallback, from: 'default for Local' };
}

/** The configurations that shape the group, the Service's first (it wins). */
function configurationsOf(path: AwsGatewayPath): string[] {
  return [
    ...(path.targetGroupConfiguration
      ? [`TargetGroupConfiguration ${kubeObjectRef(path.targetGroupConfiguration)}`]
      : []),
    ...(path.gatewayDefault?.names ?? []),
  ];
}

/**
 * The TargetGroupProps for `route`: the default configuration with the most specific route
 * configuration laid over it (tg_config_constructor.go@v2.14.0 … @v3.5.0 mergeWithLongestMatch;
 * v2.13.x reads no route configuration).
 */
function propsFor(
  defaultConfiguration: unknown,
  routeConfigurations: unknown,
  route: KubeObject,
): TargetGroupProps {
  const base = asProps(defaultConfiguration);
  let matched: TargetGroupProps | undefined;
  let rank = 0;
  for (const entry of Array.isArray(routeConfigurations) ? routeConfigurations : []) {
    if (entry === null || typeof entry !== 'object') continue;
    const { routeIdentifier: id, targetGroupProps } = entry as {
      routeIdentifier?: { kind?: unknown; namespace?: unknown; name?: unknown } | null;
      targetGroupProps?: unknown;
    };
    const kind = (id?.kind ?? '') === route.kind;
    const namespace = (id?.namespace ?? '') === (route.metadata?.namespace ?? '');
    if (kind && namespace && (id?.name ?? '') === (route.metadata?.name ?? '')) {
      matched = asProps(targetGroupProps);
      break;
    }
    if ((id?.name ?? '') !== '') continue;
    if (kind && namespace && rank < 2) [matched, rank] = [asProps(targetGroupProps), 2];
    else if (kind && (id?.namespace ?? '') === '' && rank < 1)
      [matched, rank] = [asProps(targetGroupProps), 1];
  }
  return matched === undefined ? base : mergeProps(matched, base);
}

/**
 * `high` laid over `low`: each field from `high` where set, the attributes key by key
 * (tg_config_constructor.go merge, performTakeOneMerges, mergeAttributes).
 */
function mergeProps(high: TargetGroupProps, low: TargetGroupProps): TargetGroupProps {
  return {
    targetType: high.targetType ?? low.targetType,
    healthCheckConfig: high.healthCheckConfig ?? low.healthCheckConfig,
    targetGroupAttributes: [
      ...pairs(low.targetGroupAttributes),
      ...pairs(high.targetGroupAttributes),
    ],
  };
}

function asProps(value: unknown): TargetGroupProps {
  return value !== null && typeof value === 'object' ? value : {};
}

/** The `{key, value}` entries of targetGroupAttributes, as parsed. */
function pairs(value: unknown): Array<{ key: string; value: string }> {
  return (Array.isArray(value) ? value : []).flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { key, value: text } = entry as { key?: unknown; value?: unknown };
    // As parsed: an unquoted number or boolean value is read as its text.
    const scalar =
      typeof text === 'string' || typeof text === 'number' || typeof text === 'boolean';
    return typeof key === 'string' ? [{ key, value: scalar ? String(text) : '' }] : [];
  });
}

/**
 * The attributes as entries for the parser; a later entry of a key replaces an earlier one, as the
 * controller's map does (buildTargetGroupAttributes).
 */
function attributeEntries(value: unknown): AttributeEntry[] {
  const byKey = new Map(pairs(value).map((p) => [p.key, p.value]));
  return [...byKey].map(([key, text]) => ({ key, text, entry: `${key}=${text}`, hasValue: true }));
}

/**
 * The Gateway's default target-group configuration from the GatewayClass's and the Gateway's
 * (either may be absent): their defaultConfiguration merged, the high-priority one's
 * routeConfigurations kept (tg_config_constructor.go@v3.2.0 MergeDefaultTGCs); the class's wins
 * unless its LoadBalancerConfiguration's mergingMode is prefer-gateway.
 */
export function gatewayDefaultOf(
  ofClass: KubeObject | undefined,
  ofGateway: KubeObject | undefined,
  preferGateway: boolean,
): GatewayDefault | undefined {
  const [high, low] = preferGateway ? [ofGateway, ofClass] : [ofClass, ofGateway];
  const top = high ?? low;
  if (top === undefined) return undefined;
  const props = (o: KubeObject | undefined) => asProps(o && specField(o, 'defaultConfiguration'));
  return {
    names: [high, low].flatMap((o) =>
      o === undefined ? [] : [`TargetGroupConfiguration ${kubeObjectRef(o)}`],
    ),
    spec: {
      defaultConfiguration: mergeProps(props(high), props(low)),
      routeConfigurations: specField(top, 'routeConfigurations'),
    },
  };
}
