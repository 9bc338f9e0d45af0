/**
 * One run over one input: detect the input's shape, load the config, run the mutators, and build
 * the output text. Nothing is written here; the entry point writes the output only when the whole
 * run succeeded (atomic output).
 */
import { loadConfig } from '../config/load.ts';
import type { ConfigSource } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { krmResults } from '../krm/results.ts';
import {
  looksLikeResourceList,
  readResourceList,
  renderResourceList,
  renderResourceListChunks,
} from '../krm/resourceList.ts';
import type { ReadListOptions, ResourceListInput } from '../krm/resourceList.ts';
import { bytesLookLikeResourceList } from '../krm/resourceListBytes.ts';
import { readResourceListBytes } from '../krm/resourceListFromBytes.ts';
import { MUTATORS } from '../mutators/registry.ts';
import type { RegisteredMutator } from '../mutators/types.ts';
import { BOM_BYTES, byteStream, readStream } from '../stream/stream.ts';
import type { ByteStream } from '../stream/stream.ts';
import { keepYoungGenerationSmall } from '../stream/youngGeneration.ts';
import { runList } from './listPipeline.ts';
import { objectKindsOf, REGISTERED_OBJECT_KINDS } from './objectKinds.ts';
import { runStream } from './streamPipeline.ts';
import type { PipelineResult } from './pipeline.ts';
import type { Resource } from '../workloads/resource.ts';
import { checkPrintableInput } from '../yaml/printableInput.ts';

/** What the caller chose: config document, flag values, and optionally other mutators (tests). */
export interface TransformOptions {
  readonly config?: ConfigSource;
  readonly flags?: Readonly<Record<string, string | undefined>>;
  readonly mutators?: readonly RegisteredMutator[];
  /** Parse every document instead of passing non-candidate kinds through unparsed. */
  readonly parseAll?: boolean;
  /**
   * Keep each workload's outcome (what explain reads); true unless false. The transform command
   * sets it false: outcomes are a few KB per workload that its output and report never read.
   */
  readonly outcomes?: boolean;
  /**
   * Keep every change record and info finding of a plain stream; true unless false. The transform
   * command sets it false when it writes no report: it then prints only warnings and errors (see
   * Keep). A ResourceList keeps them whatever this says: its results list every change.
   */
  readonly records?: boolean;
}

/** The result of a run: the output text and every record behind it. */
export interface TransformResult extends PipelineResult {
  readonly mode: 'stream' | 'resourceList';
  readonly input: string;
  readonly output: string;
  /** The output as bytes in chunks, when the input came as bytes (what the CLI writes). */
  readonly outputChunks?: readonly Uint8Array[];
  readonly config: Config;
}

/**
 * Returns the transformed text and records; throws KubeGracefulError on unreadable input or config.
 * The input may be the UTF-8 bytes of stdin (checked valid): a plain stream is then read and
 * written as bytes, and only the documents that are parsed get decoded (see readStream).
 */
export function transform(input: string | Buffer, options: TransformOptions = {}): TransformResult {
  // The check reads the bytes in chunks, each a new string: the young generation's cap looks at
  // the heap as they come (fn/stream/youngGeneration.ts).
  checkPrintableInput(input, undefined, keepYoungGenerationSmall);
  if (typeof input !== 'string') {
    // `kind: ResourceList` is ASCII: the bytes show it where the text would (see ByteStream), and
    // are read without a latin1 view, which a ResourceList would carry beside its decoded text.
    // With a byte-order mark, the text decides exactly as for text input (rare: not worth a view).
    const bom = input.subarray(0, 3).equals(BOM_BYTES);
    if (!bom && !bytesLookLikeResourceList(input))
      return transformStream(byteStream(input), options);
    // Without a byte-order mark, what the bytes say the text says: the YAML form is a line of
    // ASCII between line feeds, and in the JSON form a byte the view reads as a blank (0xa0) is
    // a UTF-8 continuation byte, which follows no blank. So the list is read from the bytes.
    if (!bom) return transformList({ bytes: input }, options);
    const text = input.toString('utf8');
    return looksLikeResourceList(text)
      ? transformList({ text, bytes: input }, options)
      : transformStream(text, options);
  }
  return looksLikeResourceList(input)
    ? transformList({ text: input }, options)
    : transformStream(input, options);
}

/** A ResourceList as given: its text, its UTF-8 bytes (stdin), or both. */
type ListInput = { text: string; bytes?: Buffer } | { text?: undefined; bytes: Buffer };

/**
 * A ResourceList. The config comes from the list's functionConfig, and tells which kinds are
 * workloads: the items of other kinds need not be parsed (issue #16). From bytes, the list is
 * read from them when laid out as kpt writes it (resourceListFromBytes.ts), else decoded whole,
 * and the output is made as bytes in chunks (renderResourceListChunks), as the CLI writes it.
 */
function transformList(input: ListInput, options: TransformOptions): TransformResult {
  let config: Config | undefined;
  const configOf = (functionConfig: unknown) =>
    (config ??= loadConfig(
      options.config ?? { data: functionConfig, origin: 'functionConfig' },
      options.flags,
    ));
  const mutators = options.mutators ?? MUTATORS;
  const readOptions = {
    parseAll: options.parseAll,
    objectKinds: objectKindsOf(mutators),
    extraKinds: (functionConfig: unknown) => configOf(functionConfig).spec.extraKinds,
  };
  const bytes = input.bytes;
  let text = input.text;
  const keep = { outcomes: options.outcomes ?? true, records: true };
  const read = (how: ReadListOptions) => {
    const list = input.text === undefined ? readResourceListBytes(input.bytes, how) : undefined;
    if (list) return list;
    text ??= input.bytes!.toString('utf8');
    return readResourceList(text, how);
  };
  const run = (list: ResourceListInput) => {
    configOf(list.functionConfig);
    return runList(list, config!, mutators, keep);
  };
  // Workload items are parsed as the run reaches them (listPipeline.ts). A list that cannot be read
  // that way is read again as it is without deferring: an item the laid-out reader cannot read
  // alone, and an error reading the others, which a workload item before it may come before (the
  // error reported is the one reading every item first meets first).
  let list: ResourceListInput | undefined;
  try {
    list = read({ ...readOptions, deferWorkloads: true });
  } catch {
    list = undefined;
  }
  let ran = list && run(list);
  if (!list || !ran) {
    list = read(readOptions);
    ran = run(list)!; // nothing deferred: always a run
  }
  const { creations, files, items, result } = ran;
  list = { ...list, items };
  const results = krmResults(result.changes, result.findings, files);
  // Bytes that are not the text's UTF-8 (a caller's invalid UTF-8, decoded with replacements)
  // get the text's.
  if (!bytes || (text !== undefined && Buffer.byteLength(text, 'utf8') !== bytes.length))
    return {
      ...result,
      mode: 'resourceList',
      input: text!,
      output: renderResourceList(list, results, creations),
      config: config!,
    };
  const outputChunks = renderResourceListChunks(list, results, bytes, creations);
  // Read from the bytes, the text is made only when asked for (--diff, explain, tests).
  let output: string | undefined;
  return {
    ...result,
    mode: 'resourceList',
    get input() {
      return (text ??= bytes.toString('utf8'));
    },
    get output() {
      return (output ??= Buffer.concat(outputChunks).toString('utf8'));
    },
    outputChunks,
    config: config!,
  };
}

/**
 * The plain stream, from text or from bytes (then read and written as bytes, see ByteStream), one
 * workload document at a time (streamPipeline.ts).
 */
function transformStream(input: string | ByteStream, options: TransformOptions): TransformResult {
  const config = loadConfig(options.config, options.flags);
  const run = runStream(input, config, options.mutators ?? MUTATORS, {
    parseAll: options.parseAll,
    keep: { outcomes: options.outcomes ?? true, records: options.records ?? true },
  });
  if (typeof input === 'string')
    return { ...run.result, mode: 'stream', input, output: run.bom + run.parts.join(''), config };
  const outputChunks = [...(run.bom ? [BOM_BYTES] : []), ...(run.parts as Uint8Array[])];
  // The texts are made only when asked for (--diff, explain, tests): the CLI writes the bytes.
  let text: string | undefined;
  let output: string | undefined;
  return {
    ...run.result,
    mode: 'stream',
    get input() {
      return (text ??= input.bytes.toString('utf8'));
    },
    get output() {
      return (output ??= Buffer.concat(outputChunks).toString('utf8'));
    },
    outputChunks,
    config,
  };
}

/**
 * Returns the run's input objects as they were read, before any edit: for explain (as written)
 * and `patches` (the objects the records were made on). Read with the run's config, so the config's
 * extra kinds are parsed in a ResourceList too.
 */
export function inputResources(result: TransformResult): readonly Resource[] {
  const extraKinds = result.config.spec.extraKinds;
  const objectKinds = REGISTERED_OBJECT_KINDS;
  return result.mode === 'resourceList'
    ? readResourceList(result.input, { extraKinds: () => extraKinds, objectKinds }).resources
    : readStream(result.input, { extraKinds, objectKinds }).resources;
}
