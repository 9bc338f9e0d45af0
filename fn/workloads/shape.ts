/**
 * The shapes mutators rely on (the types in kubeObject.ts). A workload whose pod template holds a
 * field of the wrong type — `containers` as a map, `command` as a string, `lifecycle: true` — is
 * one the API server would reject, and one a mutator would crash on or edit through. The pipeline
 * refuses it here, naming the field, before any mutator runs (issue #8: bad input is an exit-2
 * message, never an internal error).
 */
import type { Node } from 'yaml';
import type { ManifestDocument } from '../document/manifest.ts';
import { isRecord } from '../core/fieldPath.ts';
import type { FieldPath } from '../core/fieldPath.ts';
import { valueForMessage } from '../core/scalarText.ts';
import { isInt64 } from './grace.ts';

/** A field of the wrong type: where (from the object's root), what it is, what it must be. */
export interface ShapeProblem {
  readonly path: Array<string | number>;
  readonly found: string;
  readonly expected: string;
}

type Kind = 'map' | 'list' | 'string' | 'int64' | 'list of strings';

/** The checks, each adding the problem it finds; the first one found is the one reported. */
class ShapeCheck {
  readonly problems: ShapeProblem[] = [];

  /** True when `value` is of `kind`; absent (undefined, null) is no problem but not of it. */
  expect(value: unknown, kind: Kind, path: Array<string | number>): boolean {
    if (value === undefined || value === null) return false;
    const ok =
      kind === 'map'
        ? isRecord(value)
        : kind === 'list'
          ? Array.isArray(value)
          : kind === 'list of strings'
            ? Array.isArray(value) && value.every((v) => typeof v === 'string')
            : kind === 'int64'
              ? isInt64(value)
              : typeof value === kind;
    if (!ok) this.problems.push({ path, found: describe(value, kind), expected: article(kind) });
    return ok;
  }

  /** A list entry: null is as wrong as any other non-map. */
  entry(value: unknown, path: Array<string | number>): boolean {
    if (value !== null) return this.expect(value, 'map', path);
    this.problems.push({ path, found: 'null', expected: 'a map' });
    return false;
  }

  meta(value: unknown, path: Array<string | number>): void {
    if (!this.expect(value, 'map', path)) return;
    const record = value as Record<string, unknown>;
    for (const field of ['labels', 'annotations']) {
      // map[string]string: an unquoted `true` or `5` is rejected by kubectl and the API server.
      if (!this.expect(record[field], 'map', [...path, field])) continue;
      for (const [key, text] of Object.entries(record[field] as Record<string, unknown>))
        this.expect(text, 'string', [...path, field, key]);
    }
  }

  volumes(spec: Record<string, unknown>, specPath: Array<string | number>): void {
    if (!this.expect(spec['volumes'], 'list', [...specPath, 'volumes'])) return;
    (spec['volumes'] as unknown[]).forEach((volume, i) => {
      const path = [...specPath, 'volumes', i];
      if (!this.entry(volume, path)) return;
      const hostPath = (volume as Record<string, unknown>)['hostPath'];
      if (this.expect(hostPath, 'map', [...path, 'hostPath']))
        this.expect((hostPath as Record<string, unknown>)['path'], 'string', [
          ...path,
          'hostPath',
          'path',
        ]);
    });
  }

  container(container: unknown, path: Array<string | number>): void {
    if (!this.entry(container, path)) return;
    const c = container as Record<string, unknown>;
    if (typeof c['name'] !== 'string')
      this.problems.push({
        path: [...path, 'name'],
        found: describe(c['name'], 'string'),
        expected: 'a string',
      });
    this.expect(c['image'], 'string', [...path, 'image']);
    this.expect(c['restartPolicy'], 'string', [...path, 'restartPolicy']);
    this.expect(c['command'], 'list of strings', [...path, 'command']);
    this.expect(c['args'], 'list of strings', [...path, 'args']);
    for (const field of ['ports', 'env'] as const) {
      if (this.expect(c[field], 'list', [...path, field]))
        (c[field] as unknown[]).forEach((item, j) => this.entry(item, [...path, field, j]));
    }
    if (this.expect(c['lifecycle'], 'map', [...path, 'lifecycle'])) {
      const lifecycle = c['lifecycle'] as Record<string, unknown>;
      this.expect(lifecycle['preStop'], 'map', [...path, 'lifecycle', 'preStop']);
      this.expect(lifecycle['postStart'], 'map', [...path, 'lifecycle', 'postStart']);
    }
  }
}

/**
 * Returns the first field a mutator reads that has the wrong type, or undefined when the shape is
 * usable.
 */
export function workloadShapeProblem(
  object: unknown,
  templatePath: FieldPath,
): ShapeProblem | undefined {
  const check = new ShapeCheck();
  const { problems } = check;
  if (!isRecord(object)) return undefined;
  check.meta(object['metadata'], ['metadata']);
  // The way down to the pod template: every step a map (a Pod is its own template).
  let template: unknown = object;
  const at: Array<string | number> = [];
  for (const segment of templatePath) {
    if (typeof segment !== 'string') return problems[0];
    const next = (template as Record<string, unknown>)[segment];
    at.push(segment);
    if (!check.expect(next, 'map', [...at])) return problems[0];
    template = next;
  }
  const t = template as Record<string, unknown>;
  if (templatePath.length > 0) check.meta(t['metadata'], [...at, 'metadata']);
  const specPath = [...at, 'spec'];
  if (!check.expect(t['spec'], 'map', specPath)) return problems[0];
  const spec = t['spec'] as Record<string, unknown>;
  check.expect(spec['restartPolicy'], 'string', [...specPath, 'restartPolicy']);
  check.expect(spec['terminationGracePeriodSeconds'], 'int64', [
    ...specPath,
    'terminationGracePeriodSeconds',
  ]);
  check.volumes(spec, specPath);
  for (const list of ['containers', 'initContainers']) {
    if (!check.expect(spec[list], 'list', [...specPath, list])) continue;
    (spec[list] as unknown[]).forEach((container, i) =>
      check.container(container, [...specPath, list, i]),
    );
  }
  return problems[0];
}

/**
 * Returns the 1-based input line of the node at `path` in the document, if it can be told. A field
 * that is missing (a container without `name`) is placed at the nearest node that holds it.
 */
export function lineOf(doc: ManifestDocument, path: FieldPath): number | undefined {
  if (doc.place.line === 0) return undefined;
  for (let length = path.length; length >= 0; length--) {
    const node = doc.document.getIn(path.slice(0, length) as unknown[], true) as Node | undefined;
    const offset = node?.range?.[0];
    if (offset !== undefined) return doc.lineAt(offset);
  }
  return undefined;
}

function describe(value: unknown, kind: Kind): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (kind === 'list of strings' && Array.isArray(value)) {
    const bad = (value as unknown[]).find((v) => typeof v !== 'string');
    return `a list holding ${describe(bad, 'string')}`;
  }
  if (Array.isArray(value)) return 'a list';
  // `!!binary` (a yaml-1.1 tag) reads as bytes: not a map, whatever JavaScript calls it.
  if (value instanceof Uint8Array) return 'binary data (a !!binary value)';
  if (typeof value === 'object') return 'a map';
  if (kind === 'int64' && (typeof value === 'number' || typeof value === 'bigint'))
    return valueForMessage(value);
  return `a ${typeof value} (${valueForMessage(value)})`;
}

function article(kind: Kind): string {
  if (kind === 'list of strings') return 'a list of strings (quote numbers and booleans)';
  // The API server decodes the field into an int64 (k8s.io/api core/v1 types.go): a fraction,
  // .nan or .inf, or a number past ±2^63 is refused there, so it is refused here.
  if (kind === 'int64') return 'a whole number of seconds from -2^63 to 2^63-1';
  return `a ${kind}`;
}
