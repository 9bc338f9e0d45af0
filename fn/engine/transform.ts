/**
 * One run over one input: detect the input's shape, load the config, run the mutators, and build
 * the output text. Nothing is written here; the entry point writes the output only when the whole
 * run succeeded (atomic output).
 */
import { loadConfig } from '../config/load.ts';
import type { ConfigSource } from '../config/load.ts';
import type { Config } from '../config/schema.ts';
import { krmResults } from '../krm/results.ts';
import { looksLikeResourceList, readResourceList, renderResourceList } from '../krm/resourceList.ts';
import { MUTATORS } from '../mutators/registry.ts';
import type { Mutator } from '../mutators/types.ts';
import { readStream, renderStream } from '../stream/stream.ts';
import { runPipeline } from './pipeline.ts';
import type { PipelineResult } from './pipeline.ts';

/** What the caller chose: config document, flag values, and optionally other mutators (tests). */
export interface TransformOptions {
  readonly config?: ConfigSource;
  readonly flags?: Readonly<Record<string, string | undefined>>;
  readonly mutators?: readonly Mutator[];
  /** Parse every document instead of passing non-candidate kinds through unparsed. */
  readonly parseAll?: boolean;
}

/** The result of a run: the output text and every record behind it. */
export interface TransformResult extends PipelineResult {
  readonly mode: 'stream' | 'resourceList';
  readonly input: string;
  readonly output: string;
  readonly config: Config;
}

/** Returns the transformed text and records; throws KubeGracefulError on unreadable input or config. */
export function transform(text: string, options: TransformOptions = {}): TransformResult {
  const mutators = options.mutators ?? MUTATORS;
  if (looksLikeResourceList(text)) {
    const list = readResourceList(text);
    const config = loadConfig(options.config ?? { data: list.functionConfig, origin: 'functionConfig' }, options.flags);
    const result = runPipeline(list.resources, config, mutators);
    const output = renderResourceList(list, krmResults(result.changes, result.findings, list.resources));
    return { ...result, mode: 'resourceList', input: text, output, config };
  }
  const config = loadConfig(options.config, options.flags);
  const stream = readStream(text, { extraKinds: config.spec.extraKinds, parseAll: options.parseAll });
  const result = runPipeline(stream.resources, config, mutators);
  return { ...result, mode: 'stream', input: text, output: renderStream(stream), config };
}
