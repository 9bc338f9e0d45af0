/**
 * A mutator's part of the config, as the mutator's folder declares it: the spec key it owns
 * (`spec.traefik`), its defaults, its schema and its flat keys. The mutator names its slice
 * (`settings` in fn/mutators/types.ts), and fn/config composes the slices of the registered
 * mutators (fn/config/slices.ts, generated from the registry) into the spec schema and the flat
 * keys: a new mutator's settings need no line outside its folder.
 */
import type * as z from 'zod/mini';
import type { SliceFlatKeys } from './flatKey.ts';

/** One mutator's settings slice. */
export interface SettingsSlice<
  Key extends string = string,
  Schema extends z.ZodMiniType = z.ZodMiniType,
  Defaults = unknown,
> {
  /** The spec key it owns, camelCase (`ingressNginx`). */
  readonly key: Key;
  /** `spec.<key>` when nothing sets it: the one place these values are written. */
  readonly defaults: Defaults;
  /** Builds the schema, whose `.default()`s are `defaults` (built on first use, as zod is). */
  readonly schema: () => Schema;
  readonly flatKeys: SliceFlatKeys;
}

/** Declares a slice, keeping its key, schema and defaults types for the composed spec. */
export function defineSlice<const Key extends string, Schema extends z.ZodMiniType, const Defaults>(
  slice: SettingsSlice<Key, Schema, Defaults>,
): SettingsSlice<Key, Schema, Defaults> {
  return slice;
}
