/**
 * Names of the load-balancer providers the timing model knows
 * (docs/background.md#load-balancers-in-front-of-gateways), for config and flags.
 */
export const LOAD_BALANCER_PROVIDERS = [
  'aws-nlb-ip',
  'aws-alb-ip',
  'gke-neg',
  'azure-appgw',
  'generic-lb',
  'in-cluster',
] as const;
