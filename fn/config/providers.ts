/** Names of the load-balancer providers the timing model knows (DOMAIN.md §4), for config and flags. */
export const LOAD_BALANCER_PROVIDERS = ['aws-nlb-ip', 'aws-alb-ip', 'gke-neg', 'azure-appgw', 'generic-lb', 'in-cluster'] as const;
