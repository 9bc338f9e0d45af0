/**
 * The transform of a command's files with its settings: what `explain`, `check`, `patches` and
 * `policy` each start from (the transform itself streams its input: transformCommand.ts).
 */
import { transform } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import { findingLine } from './findingsText.ts';
import { findingLocation, inFiles, readInputs } from './inputs.ts';
import type { Inputs } from './inputs.ts';
import type { SettingOptions } from './settingsOptions.ts';
import { configFromOption } from './transformCommand.ts';

/** Reads the files (stdin for none) and transforms them with the command's settings. */
export function transformFiles(options: SettingOptions & { readonly files: readonly string[] }): {
  readonly inputs: Inputs;
  readonly result: TransformResult;
} {
  const config = configFromOption(options.config);
  const inputs = readInputs(options.files);
  const result = inFiles(inputs, () =>
    transform(inputs.text, {
      flags: options.flags,
      parseAll: options.allDocuments,
      ...(config ? { config } : {}),
    }),
  );
  return { inputs, result };
}

/** The run's warnings and errors, one line each, at their file:line where files were named. */
export function findingLines(result: TransformResult, inputs: Inputs): string[] {
  return result.findings
    .filter((f) => f.severity !== 'info')
    .map((f) => findingLine(f, inputs.named ? findingLocation(f, inputs) : undefined));
}
