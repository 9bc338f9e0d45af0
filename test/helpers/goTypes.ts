/**
 * The JSON shape of Kubernetes API objects read from their Go types (a types.go of kubernetes/api
 * at a tag): each struct's fields by JSON name, with `json:",inline"` structs merged in, so a test
 * can check that an object uses only fields the API of that version has.
 */
import { readFileSync } from 'node:fs';

/** A struct's fields: JSON name → Go type of the field (pointer, slice and package stripped). */
type Structs = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Reads the structs of a Go file. */
export function goStructs(path: string): Structs {
  const text = readFileSync(path, 'utf8');
  const raw = new Map<string, Array<{ json: string; type: string }>>();
  for (const match of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    const fields: Array<{ json: string; type: string }> = [];
    for (const line of match[2]!.split('\n')) {
      const field = /^\t(?:(\w+)\s+)?([\w.*[\]]+)\s+`json:"([^",]*)/.exec(line);
      if (field) fields.push({ json: field[3]!, type: field[2]!.replace(/^[*[\]]+/, '') });
    }
    raw.set(match[1]!, fields);
  }
  const resolve = (name: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const { json, type } of raw.get(name) ?? []) {
      if (json === '') for (const [k, v] of resolve(type)) out.set(k, v);
      else out.set(json, type);
    }
    return out;
  };
  return new Map([...raw.keys()].map((name) => [name, resolve(name)]));
}

/**
 * Returns the paths in `value` (of Go type `type`) that the structs do not have; a field of a
 * type the file does not define (metav1.ObjectMeta, a string) is not looked into.
 */
export function unknownFields(structs: Structs, type: string, value: unknown, at = ''): string[] {
  const fields = structs.get(type);
  if (fields === undefined || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value))
    return value.flatMap((item, i) => unknownFields(structs, type, item, `${at}[${i}]`));
  return Object.entries(value).flatMap(([key, child]) => {
    const childType = fields.get(key);
    if (childType === undefined) return [`${at}.${key}`];
    return unknownFields(structs, childType, child, `${at}.${key}`);
  });
}
