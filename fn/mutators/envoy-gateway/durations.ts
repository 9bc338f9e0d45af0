/**
 * ShutdownConfig durations as Envoy Gateway reads and accepts them: Go duration text
 * (time.ParseDuration in internal/infrastructure/kubernetes/proxy/resource.go@v1.9.0), written in
 * the Gateway API Duration form the CRD validates from v1.5.0 (`^([0-9]{1,5}(h|m|s|ms)){1,4}$`).
 */
import { parseGoDurationSeconds } from '../../timing/durations.ts';
import { MAX_DURATION_COMPONENT } from './facts.ts';
import { scalarText } from '../../core/scalarText.ts';

/** A field's value as read: absent, whole seconds (rounded up), or text Envoy Gateway would
 * refuse. */
export type ReadDuration =
  | { readonly kind: 'absent' }
  | { readonly kind: 'seconds'; readonly seconds: number; readonly text: string }
  | { readonly kind: 'unreadable'; readonly text: string };

/** Reads one ShutdownConfig field; a fraction of a second counts as the next whole second. */
export function readDuration(value: unknown): ReadDuration {
  if (value === undefined || value === null) return { kind: 'absent' };
  const text = scalarText(value);
  // A bare number is no duration to Go (and fails the v1.5.0+ CRD pattern): "60" is not 60 s.
  const seconds = typeof value === 'string' ? parseGoDurationSeconds(value.trim()) : undefined;
  return seconds === undefined
    ? { kind: 'unreadable', text }
    : { kind: 'seconds', seconds: Math.ceil(seconds), text };
}

/** Formats whole seconds as "Ns", or as hours, minutes and seconds when N has more than five
 * digits. */
export function formatDuration(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(
      `formatDuration: expected whole, non-negative seconds, got ${String(seconds)}`,
    );
  }
  if (seconds <= MAX_DURATION_COMPONENT) return `${seconds}s`;
  return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m${seconds % 60}s`;
}
