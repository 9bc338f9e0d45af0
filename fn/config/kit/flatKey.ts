/**
 * One flat setting: a name that works as a CLI flag (`--kube-version 1.31`), a ConfigMap
 * functionConfig `data` key (`kpt fn eval … -- kube-version=1.31`) and a `kube-graceful.dev/`
 * annotation, and how its text is read. The list of them is fn/config/flatKeys.ts.
 */

/** How a flat value is read from text. */
type Reader = 'string' | 'seconds' | 'boolean' | 'list';

/** A flat setting: its name, the spec field it sets, how it is read and what it means. */
export interface FlatKey {
  readonly name: string;
  readonly specPath: readonly string[];
  readonly read: Reader;
  readonly help: string;
  readonly choices?: readonly string[];
}

/**
 * A mutator's flat settings: its mode switch, listed with the other switches near the top of
 * `--help`, and the rest, listed after the timing and mesh settings.
 */
export interface SliceFlatKeys {
  readonly mode: FlatKey;
  readonly details: readonly FlatKey[];
}

/** Returns the typed value of a flat setting's text, or an error message saying what is allowed. */
export function readFlatValue(key: FlatKey, text: string): { value: unknown } | { error: string } {
  switch (key.read) {
    case 'string':
      // The same answer for a flag, a ConfigMap key and an annotation: the name the user wrote,
      // the value, and what is allowed (not the schema path it maps to).
      if (key.choices && !key.choices.includes(text))
        return {
          error:
            `${key.name}: got ${JSON.stringify(text)}; ` +
            `expected one of ${key.choices.join(', ')}`,
        };
      return { value: text };
    case 'list':
      return {
        value: text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: `${key.name}: got ${JSON.stringify(text)}; expected true or false` };
    case 'seconds': {
      const match = /^(\d+)s?$/.exec(text.trim());
      if (!match)
        return {
          error: `${key.name}: got ${JSON.stringify(text)}; expected whole seconds, e.g. 180`,
        };
      return { value: Number(match[1]) };
    }
  }
}
