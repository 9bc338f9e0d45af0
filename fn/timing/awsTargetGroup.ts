/**
 * Reading AWS target-group attributes from Service/Ingress annotations: the deregistration
 * delay and connection termination that the timing checks compare with the pod's drain.
 */

/**
 * AWS target-group attributes that decide how long the LB keeps existing connections
 * (docs/background.md#load-balancers-in-front-of-gateways), read from
 * `…/aws-load-balancer-target-group-attributes`.
 */
export interface AwsTargetGroupAttributes {
  /** `deregistration_delay.timeout_seconds`; 300 (the AWS default) when the attribute is absent. */
  deregistrationDelaySeconds?: number;
  /** True when the attribute was absent and `deregistrationDelaySeconds` is AWS's default. */
  deregistrationDelayIsDefault: boolean;
  /** `deregistration_delay.connection_termination.enabled`; absent means AWS's default, false. */
  connectionTermination?: boolean;
  /** Entries of the annotation this parser could not read, quoted for a result message. */
  unreadable: string[];
}

/**
 * AWS's default `deregistration_delay.timeout_seconds`
 * (docs/background.md#load-balancers-in-front-of-gateways; AWS ELB docs, target
 * group attributes).
 */
export const AWS_DEFAULT_DEREGISTRATION_DELAY_SECONDS = 300;

/**
 * Parses the `service.beta.kubernetes.io/aws-load-balancer-target-group-attributes` (or the
 * ALB `alb.ingress.kubernetes.io/target-group-attributes`) value, a comma-separated list such as
 * `deregistration_delay.timeout_seconds=200` and
 * `deregistration_delay.connection_termination.enabled=true`.
 *
 * Returns the deregistration delay (AWS's default 300 s, flagged by `deregistrationDelayIsDefault`,
 * when the attribute is absent), the connection-termination flag when present, and the entries it
 * could not read. An unreadable delay is left undefined rather than defaulted, so the caller
 * reports it instead of trusting 300.
 */
export function parseAwsTargetGroupAttributes(value: string): AwsTargetGroupAttributes {
  const entries: AttributeEntry[] = [];
  for (const rawEntry of String(value ?? '').split(',')) {
    const entry = rawEntry.trim();
    if (entry === '') continue;
    const equals = entry.indexOf('=');
    entries.push(
      equals < 0
        ? { key: entry, text: '', entry, hasValue: false }
        : {
            key: entry.slice(0, equals).trim(),
            text: entry.slice(equals + 1).trim(),
            entry,
            hasValue: true,
          },
    );
  }
  return targetGroupAttributesOf(entries);
}

/** One target-group attribute as written: its key, its value, and the entry to quote. */
export interface AttributeEntry {
  readonly key: string;
  readonly text: string;
  /** The entry as the user wrote it, for a result message. */
  readonly entry: string;
  /** False for an entry without `=` (unreadable in an annotation's list). */
  readonly hasValue: boolean;
}

/**
 * Reads the attributes that decide timing from entries, wherever they are written (an
 * annotation's list, a TargetGroupConfiguration's targetGroupAttributes): see
 * parseAwsTargetGroupAttributes. A later entry of a key wins, as the controllers' maps do.
 */
export function targetGroupAttributesOf(
  entries: readonly AttributeEntry[],
): AwsTargetGroupAttributes {
  const result: AwsTargetGroupAttributes = { deregistrationDelayIsDefault: false, unreadable: [] };
  let delaySeen = false;
  for (const { key, text, entry, hasValue } of entries) {
    if (key === 'deregistration_delay.timeout_seconds') {
      delaySeen = true;
      // AWS accepts 0–3600 s (ELB target group attributes docs).
      if (/^\d+$/.test(text) && Number(text) <= 3600) {
        result.deregistrationDelaySeconds = Number(text);
      } else {
        result.unreadable.push(entry);
      }
    } else if (key === 'deregistration_delay.connection_termination.enabled') {
      if (text === 'true' || text === 'false') result.connectionTermination = text === 'true';
      else result.unreadable.push(entry);
    } else if (!hasValue) {
      result.unreadable.push(entry);
    }
    // Other attributes (preserve_client_ip.enabled, stickiness.*, …) do not affect timing.
  }
  if (!delaySeen) {
    result.deregistrationDelaySeconds = AWS_DEFAULT_DEREGISTRATION_DELAY_SECONDS;
    result.deregistrationDelayIsDefault = true;
  }
  return result;
}
