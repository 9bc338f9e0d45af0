/**
 * Per-workload overrides through `kube-graceful.dev/` annotations on the workload or its pod
 * template; the names are the flat setting names (`kube-graceful.dev/drain-window: "60"`), plus
 * `kube-graceful.dev/skip: "true"` to leave a workload alone and `kube-graceful.dev/ignore: CODE`
 * to accept findings (ignoreAnnotation.ts).
 */
import type { ProposedFinding } from '../mutators/types.ts';
import { annotationsOf } from '../core/kubeObject.ts';
import type { Workload } from '../workloads/workload.ts';
import { FLAT_KEYS, readFlatValue } from '../config/flatKeys.ts';
import { specSchema } from '../config/schema.ts';
import type { Config } from '../config/schema.ts';
import { valueForMessage } from '../core/scalarText.ts';
import { closest } from '../core/didYouMean.ts';
import { IGNORE_ANNOTATION, readIgnore } from './ignoreAnnotation.ts';

const ANNOTATION_PREFIX = 'kube-graceful.dev/';
const SKIP_ANNOTATION = `${ANNOTATION_PREFIX}skip`;
/** The annotations a workload may set, for the message that refuses an unknown one. */
const FLAT_ANNOTATIONS = FLAT_KEYS.map((k) => ANNOTATION_PREFIX + k.name).join(', ');

/** ` (did you mean kube-graceful.dev/NAME?)` for a mistyped setting name, or ''. */
function suggestion(setting: string): string {
  const near = closest(setting, ['skip', 'ignore', ...FLAT_KEYS.map((k) => k.name)]);
  return near === undefined ? '' : ` (did you mean ${ANNOTATION_PREFIX}${near}?)`;
}

/** Whether an object's annotations leave it alone, and the finding for a value not understood. */
export interface SkipRead {
  readonly skip: boolean;
  readonly finding?: ProposedFinding;
}

/**
 * Reads `kube-graceful.dev/skip`: "true" leaves the object alone, "false" or no annotation does
 * not. Any other value (`"True"`, `"yes"`, `"1"`) is refused with an error finding, and the object
 * is left alone all the same: a user who wrote an opt-out meant one, and it is never dropped in
 * silence (issue #33).
 */
export function readSkip(annotations: Readonly<Record<string, unknown>>): SkipRead {
  if (!(SKIP_ANNOTATION in annotations)) return { skip: false };
  const text = annotations[SKIP_ANNOTATION];
  if (text === 'true') return { skip: true };
  if (text === 'false') return { skip: false };
  return {
    skip: true,
    finding: {
      severity: 'error',
      code: 'BAD_ANNOTATION',
      message:
        `${SKIP_ANNOTATION}: got ${valueForMessage(text)}; write "true" to leave this object ` +
        'alone or "false" to have it patched (left alone until then)',
      path: ['metadata', 'annotations', SKIP_ANNOTATION],
    },
  };
}

/** The settings for one workload, whether to skip it, and findings on bad annotations. */
export interface WorkloadSettings {
  readonly config: Config;
  readonly skip: boolean;
  readonly findings: ProposedFinding[];
  /** The finding codes the workload accepts (`kube-graceful.dev/ignore`). */
  readonly ignore: ReadonlySet<string>;
}

const NO_CODES: ReadonlySet<string> = new Set();

/** Returns the config with this workload's annotations applied (workload metadata wins over pod
 * template). */
export function workloadSettings(config: Config, workload: Workload): WorkloadSettings {
  const annotations = {
    ...annotationsOf(workload.template.metadata),
    ...annotationsOf(workload.object.metadata),
  };
  // Most workloads carry none: the run's config is already valid, no copy or re-validation needed.
  if (!Object.keys(annotations).some((name) => name.startsWith(ANNOTATION_PREFIX)))
    return { config, skip: false, findings: [], ignore: NO_CODES };
  const findings: ProposedFinding[] = [];
  const spec = structuredClone(config.spec) as Record<string, unknown>;
  const provenance = new Map(config.provenance);
  /** Which annotation set each spec field: to name it when the field is refused. */
  const setBy = new Map<string, string>();
  let skip = false;
  let ignore = NO_CODES;
  for (const [name, text] of Object.entries(annotations)) {
    if (!name.startsWith(ANNOTATION_PREFIX)) continue;
    const setting = name.slice(ANNOTATION_PREFIX.length);
    if (setting === 'skip') {
      const read = readSkip(annotations);
      skip = read.skip;
      if (read.finding) findings.push(read.finding);
      continue;
    }
    if (name === IGNORE_ANNOTATION) {
      const read = readIgnore(annotations);
      ignore = read.codes;
      if (read.finding) findings.push(read.finding);
      continue;
    }
    const key = FLAT_KEYS.find((k) => k.name === setting);
    const read = key
      ? readFlatValue(key, String(text))
      : {
          error:
            `unknown annotation${suggestion(setting)}; ` +
            `known: ${SKIP_ANNOTATION}, ${IGNORE_ANNOTATION}, ${FLAT_ANNOTATIONS}`,
        };
    if (!key || 'error' in read) {
      findings.push({
        severity: 'error',
        code: 'BAD_ANNOTATION',
        message: `${name}: ${'error' in read ? read.error : ''}`,
        path: ['metadata', 'annotations', name],
      });
      continue;
    }
    let node = spec;
    for (const part of key.specPath.slice(0, -1))
      node = (node[part] ??= {}) as Record<string, unknown>;
    node[key.specPath.at(-1)!] = read.value;
    provenance.set(key.specPath.join('.'), { kind: 'annotation', annotation: name });
    setBy.set(key.specPath.join('.'), name);
  }
  const parsed = specSchema().safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // Name the annotation that set the field (`drain-window: "99999999"`), not only the spec field.
    const name = setBy.get(issue.path.join('.'));
    if (name !== undefined) {
      findings.push({
        severity: 'error',
        code: 'BAD_ANNOTATION',
        message:
          `${name}: got ${JSON.stringify(String(annotations[name]))}; ${issue.path.join('.')}` +
          `: ${issue.message}`,
        path: ['metadata', 'annotations', name],
      });
    } else {
      findings.push({
        severity: 'error',
        code: 'BAD_ANNOTATION',
        message: `${ANNOTATION_PREFIX} annotation: ${issue.path.join('.')}: ${issue.message}`,
      });
    }
    return { config, skip: true, findings, ignore };
  }
  return { config: { spec: parsed.data, provenance }, skip, findings, ignore };
}
