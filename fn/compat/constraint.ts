/**
 * One row of the compatibility table: an upstream constraint kube-graceful relies on. The shared
 * rows live in ./table.ts; a mutator declares the rows only it relies on in its own folder
 * (`compatibility.ts`), and fn/mutators/compatibility.ts joins both into the table that
 * docs/compatibility.md and the tests read.
 */
import type { CheckedPod } from './pod.ts';

export interface Constraint {
  /** Stable id, used by tests and in docs anchors. */
  readonly id: string;
  /**
   * The upstream project the constraint is about, as docs/compatibility.md heads its section
   * (`Kubernetes`, `Istio`, `Traefik`): a mutator's rows may open a section of their own.
   */
  readonly product: string;
  /** The setting or behaviour the constraint is about. */
  readonly setting: string;
  /** The versions the constraint holds for, in words (`< 1.17`, `1.12+`). */
  readonly versions: string;
  /** What goes wrong when a manifest ignores it. */
  readonly breaks: string;
  /** Where it was read: upstream file@tag (or issue/KEP URL). */
  readonly sources: readonly string[];
  /**
   * Returns why the written pod breaks the constraint, or undefined; absent when output cannot show
   * it.
   */
  readonly check?: (pod: CheckedPod) => string | undefined;
  /** When there is no check: where it is enforced instead. */
  readonly enforcedBy?: string;
}
