/** What the traefik-drain decision's steps return: fields to set and findings. */
import type { FieldPath } from '../../core/fieldPath.ts';

/** The finding codes this logic emits (docs/mutators/traefik-drain.md "Findings"). */
export type TraefikFindingCode =
  | 'TRAEFIK_LIFECYCLE_KEPT'
  | 'TRAEFIK_LIFECYCLE_UNREADABLE'
  | 'TRAEFIK_GRACE_KEPT'
  | 'TRAEFIK_STATIC_CONFIG_FILE'
  | 'TRAEFIK_ENTRY_POINTS_UNKNOWN'
  | 'TRAEFIK_UDP_ENTRY_POINT'
  | 'TRAEFIK_PRESTOP_KEPT'
  | 'TRAEFIK_PRESTOP_LENGTH_UNKNOWN'
  | 'TRAEFIK_SEVERAL_CONTAINERS'
  | 'TRAEFIK_TIMING_INPUT'
  | 'TRAEFIK_PING_TERMINATING'
  | 'LB_DEREGISTRATION_TOO_SHORT'
  | 'LB_DEREGISTRATION_OUTLIVES_GRACE';

/** A field to set, from the object's root (the shape of ProposedChange in fn/mutators/types.ts). */
export interface TraefikChange {
  readonly path: FieldPath;
  readonly value: unknown;
  readonly reason: string;
}

/** A finding (the shape of ProposedFinding in fn/mutators/types.ts). */
export interface TraefikFinding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: TraefikFindingCode;
  readonly message: string;
  readonly path?: FieldPath;
}
