/**
 * The keys a config object may have at a path, read from the schema itself: what an unknown key's
 * "did you mean …" chooses from (issue #28), so the suggestion cannot drift from the fields.
 */
import type { core } from 'zod/mini';

interface Def {
  readonly type: string;
  readonly innerType?: core.$ZodType;
  readonly in?: core.$ZodType;
  readonly element?: core.$ZodType;
  readonly shape?: Readonly<Record<string, core.$ZodType>>;
}

function defOf(schema: core.$ZodType): Def {
  return schema._zod.def;
}

/** Returns the schema under defaults, optionals and pipes: the object or list it stands for. */
function unwrapped(schema: core.$ZodType): core.$ZodType {
  let node = schema;
  for (;;) {
    const def = defOf(node);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return node;
    node = inner;
  }
}

/** Returns the keys the object at `path` of `schema` may have; [] when `path` is no object. */
export function keysAt(schema: core.$ZodType, path: readonly PropertyKey[]): string[] {
  let node: core.$ZodType | undefined = unwrapped(schema);
  for (const key of path) {
    const def = defOf(node);
    node =
      def.type === 'array' && typeof key === 'number'
        ? def.element
        : typeof key === 'string'
          ? def.shape?.[key]
          : undefined;
    if (!node) return [];
    node = unwrapped(node);
  }
  return Object.keys(defOf(node).shape ?? {});
}
