/**
 * Field types the config's parts share: the spec's own fields (fn/config/schema.ts) and each
 * mutator's settings slice (fn/mutators/NAME/settings/slice.ts). Each is a function so that a
 * schema is built only when a config is validated (issue #9: a run without one never loads zod's
 * parser).
 */
import * as z from 'zod/mini';
import { MAX_INPUT_SECONDS } from '../../timing/model.ts';

/**
 * Durations are whole seconds; a day is far beyond any real drain and catches unit mistakes (ms).
 */
export function seconds() {
  return z
    .number()
    .check(
      z.int('expected whole seconds'),
      z.minimum(0, 'expected 0 or more seconds'),
      z.maximum(MAX_INPUT_SECONDS, `expected at most ${MAX_INPUT_SECONDS} seconds (one day)`),
    );
}

/**
 * A mode switch. Config files are read as YAML 1.1 (like Kubernetes), where an unquoted `off` or
 * `on` is a boolean; `mode: off` must still mean "off" rather than fail.
 */
export function modeSwitch<const T extends readonly [string, ...string[]]>(values: T) {
  return z.pipe(
    z.transform((value: unknown) =>
      value === false && values.includes('off')
        ? 'off'
        : value === true && values.includes('on')
          ? 'on'
          : value,
    ),
    z.enum(values),
  );
}
