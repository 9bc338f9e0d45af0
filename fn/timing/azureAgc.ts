/**
 * Azure Application Gateway for Containers (AGC): a managed load balancer outside the cluster that
 * sends to the pods' IPs, driven by the ALB Controller through the Gateway API (GatewayClass
 * `azure-alb-external`, controllerName `alb.networking.azure.io/alb-controller`, which the
 * controller installs) or an Ingress of that class (MicrosoftDocs/azure-docs
 * articles/application-gateway/for-containers/: quickstart-deploy-application-gateway-for-
 * containers-alb-controller-addon.md, how-to-traffic-splitting-gateway-api.md@0a8a1a9,
 * how-to-header-rewrite-ingress-api.md). How soon it stops sending to a pod that Kubernetes marks
 * terminating is not modelled: kube-graceful reads none of its policies, so its window is unknown,
 * never the in-cluster one an Ingress controller of an unknown class gets.
 */
import type { Unknown } from '../core/unknown.ts';
import type { LoadBalancerRecognition } from './loadBalancerTable.ts';
import { recognitionFor as recognition } from './loadBalancerTable.ts';

/** The class the ALB Controller installs, for Gateways and Ingresses alike. */
const AGC_CLASS = 'azure-alb-external';
/** The ALB Controller's controllerName on its GatewayClass and IngressClass. */
const AGC_CONTROLLER = 'alb.networking.azure.io/alb-controller';

/** True when a Gateway's or Ingress's class is AGC's, by its controller or its built-in name. */
export function isAzureAgc(className: unknown, controller: unknown): boolean {
  return controller === undefined ? className === AGC_CLASS : controller === AGC_CONTROLLER;
}

/**
 * The window of pods that AGC sends to, marked not modelled: `subject` is the Gateway or Ingress,
 * `evidence` says which route or field put the pods behind it.
 */
export function azureAgc(subject: string, evidence: string): LoadBalancerRecognition {
  return recognition('in-cluster', `${evidence}: Azure Application Gateway for Containers`, {
    subject,
    notModelled: notKnown(subject),
  });
}

function notKnown(subject: string): Unknown {
  return {
    what:
      `how long ${subject}'s Azure Application Gateway for Containers keeps sending to these ` +
      `pods once they terminate: it sends to the pods' IPs from outside the cluster, and ` +
      `kube-graceful does not model when it drops a terminating endpoint`,
    tell:
      `--drain-window set to how long it keeps sending (per workload: the ` +
      `kube-graceful.dev/drain-window annotation)`,
    brief: 'Azure Application Gateway for Containers is not modelled',
  };
}
