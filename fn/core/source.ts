/**
 * Where a value came from, as data: decisions test its kind, never its words, and the words are
 * made once, here, when a report, a reason or `explain` prints them (issue #32 item 3). Rewording
 * a source is then a change of this file and the goldens, not of any decision.
 */

/** Where a setting's value was set (the provenance of one spec path). */
export type SettingOrigin =
  | { readonly kind: 'default' }
  /** A command-line flag, by its flat name (`max-request`). */
  | { readonly kind: 'flag'; readonly flag: string }
  /**
   * A config document as its reader names it (`config FILE`, `functionConfig`), and the flat key
   * when it is a ConfigMap of flat keys.
   */
  | { readonly kind: 'document'; readonly document: string; readonly key?: string }
  /** A `kube-graceful.dev/` annotation on the workload. */
  | { readonly kind: 'annotation'; readonly annotation: string };

export const DEFAULT_ORIGIN: SettingOrigin = { kind: 'default' };

/** Returns the origin in the words the report and `explain --output json` have always used. */
export function originText(origin: SettingOrigin): string {
  switch (origin.kind) {
    case 'default':
      return 'default';
    case 'flag':
      return `flag --${origin.flag}`;
    case 'document':
      return origin.key === undefined ? origin.document : `${origin.document} (${origin.key})`;
    case 'annotation':
      return `annotation ${origin.annotation}`;
  }
}

/** Where one of the timing model's inputs (W, R, B, a deregistration delay) came from. */
export type Source =
  /** A setting; `flag` names the flat key that changes it, said when the default is used. */
  | { readonly kind: 'setting'; readonly origin: SettingOrigin; readonly flag: string }
  /**
   * The load balancers the stream shows in front of the pods: the winner's evidence as its
   * recogniser words it, and the others' (a few are named).
   */
  | {
      readonly kind: 'load-balancer';
      readonly evidence: string;
      readonly alsoInFront?: readonly string[];
      /** The Gateway whose Service istiod generates (the Service is not in the stream). */
      readonly generatedFor?: string;
    }
  /**
   * No load balancer in the stream: the provider the settings name (`origin`), or the in-cluster
   * default when they name none.
   */
  | { readonly kind: 'assumed-load-balancer'; readonly label: string; readonly origin?: Source }
  /**
   * A node's budget for its pods read from the input, in its words: a Karpenter NodePool's, or the
   * interruptible capacity the pods' nodeSelector asks for.
   */
  | { readonly kind: 'node-pool'; readonly evidence: string }
  /** An AWS target group's deregistration delay: its default, or the attribute and where. */
  | { readonly kind: 'target-group'; readonly isDefault: true; readonly attributesIn?: string }
  | {
      readonly kind: 'target-group';
      readonly isDefault: false;
      readonly where: string;
      /** Where the attributes are set when not in an annotation (a TargetGroupConfiguration). */
      readonly attributesIn?: string;
    }
  /**
   * GKE's connection draining: the NEG endpoint is removed when the load balancer stops sending
   * (≈ W), then `drainingTimeoutSec` of the BackendConfig the Service names (0, off, without one).
   */
  | {
      readonly kind: 'connection-draining';
      /** The kind of object that sets draining: a BackendConfig unless a GKE Gateway's policy. */
      readonly setBy?: 'GCPBackendPolicy';
      readonly removedAt: number;
      readonly drainingSeconds: number;
      readonly backendConfig?: string;
    }
  /**
   * A value computed from another input (Traefik's accepting window from the load balancer's W):
   * how, then that input's source, then the rest.
   */
  | {
      readonly kind: 'derived';
      readonly how: string;
      readonly from: Source;
      readonly after?: string;
    };

/** Longest list of other load balancers named in a source; every change's reason repeats it. */
const MAX_NAMED_OTHERS = 3;

/** Returns the source in words, as reasons, findings and `explain` print it. */
export function sourceText(source: Source): string {
  switch (source.kind) {
    case 'setting':
      return source.origin.kind === 'default'
        ? `default; set --${source.flag} to change`
        : originText(source.origin);
    case 'load-balancer': {
      const text = `${source.evidence}${alsoInFront(source.alsoInFront ?? [])}`;
      return source.generatedFor === undefined
        ? text
        : `${text} (the Service istiod generates for ${source.generatedFor})`;
    }
    case 'assumed-load-balancer':
      return source.origin
        ? `${source.label} (${sourceText(source.origin)})`
        : `${source.label} (default: no Service in the stream selects these pods)`;
    case 'node-pool':
      return source.evidence;
    case 'target-group':
      return source.isDefault
        ? 'AWS default deregistration delay (no target-group attribute set)'
        : `deregistration_delay.timeout_seconds ${source.where}`;
    case 'connection-draining':
      return source.backendConfig === undefined
        ? `GKE removes the NEG endpoint at ≈ ${source.removedAt} s; no ` +
            `${source.setBy ?? 'BackendConfig'} sets ` +
            `connectionDraining.drainingTimeoutSec, so draining is off and the connections ` +
            `still open are closed then`
        : `GKE removes the NEG endpoint at ≈ ${source.removedAt} s, then ` +
            `${source.setBy ?? 'BackendConfig'} ${source.backendConfig} ` +
            `connectionDraining.drainingTimeoutSec ${source.drainingSeconds} s`;
    case 'derived':
      return `${source.how}${sourceText(source.from)}${source.after ?? ''}`;
  }
}

/**
 * Returns `W: <source>`, one line of a change's reason: every source renders without its symbol,
 * and this adds it.
 */
export function sourceLine(symbol: 'W' | 'R' | 'B', source: Source): string {
  return `${symbol}: ${sourceText(source)}`;
}

/**
 * The other load balancers in front of the pods, a few by name, so reasons stay short on big
 * streams.
 */
function alsoInFront(others: readonly string[]): string {
  if (others.length === 0) return '';
  const named = others.slice(0, MAX_NAMED_OTHERS).join('; ');
  const more =
    others.length > MAX_NAMED_OTHERS ? `; and ${others.length - MAX_NAMED_OTHERS} more` : '';
  return `; also in front: ${named}${more}`;
}
