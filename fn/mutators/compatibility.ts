/**
 * The compatibility table: the shared rows (fn/compat/table.ts), then each registered mutator's
 * own, in the order of the registry. docs/compatibility.md is generated from it, and
 * test/compat/ runs every check in it against the written pods.
 */
import type { Constraint } from '../compat/constraint.ts';
import { PLATFORM_CONSTRAINTS } from '../compat/table.ts';
import { MUTATORS } from './registry.ts';

export const COMPATIBILITY: readonly Constraint[] = [
  ...PLATFORM_CONSTRAINTS,
  ...MUTATORS.flatMap((mutator) => mutator.compatibility ?? []),
];
