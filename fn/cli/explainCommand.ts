/**
 * `kube-graceful explain [FILE…|-]` (issue #7): runs the mutators as the transform would, and
 * prints, per workload, the shutdown timeline as written and as patched, the model's inputs with
 * their sources and each derived number's formula. Text for terminals, JSON (schema
 * `kube-graceful.dev/explain/v1`, docs/explain-schema.md) for machines, Markdown for PR comments.
 */
import { Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { KubeGracefulError } from '../core/errors.ts';
import { COMMIT, VERSION } from './buildInfo.ts';
import type { Explanation } from '../explain/explain.ts';
import type { Selection } from '../explain/select.ts';
import { transformFiles } from './transformFiles.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import type { SettingOptions } from './settingsOptions.ts';
import type { CommandOutput } from './transformCommand.ts';
import { EXPLAIN_RENDERERS, SUMMARY_FORMATS } from '../explain/render/renderers.ts';
import type { ExplainFormat } from '../explain/render/renderers.ts';

/** How the entry point runs a command's work (fn/cli/main.ts). */
export type Runner = (
  work: () => Promise<CommandOutput>,
  logFile: string | undefined,
) => Promise<void>;

const EXPLAIN_FORMATS = Object.keys(EXPLAIN_RENDERERS) as ExplainFormat[];

/** Options of `explain`, as the CLI parsed them. */
interface ExplainCommandOptions extends SettingOptions {
  readonly files: readonly string[];
  readonly output: ExplainFormat;
  /** ANSI colour in text output. */
  readonly colour: boolean;
  /** One line per workload (text, markdown). */
  readonly summary: boolean;
  /** Only these workloads (fn/explain/select.ts). */
  readonly selection: Selection;
}

/**
 * Returns the explanation of the files (stdin when none); throws KubeGracefulError on bad input or
 * config. explain is imported here, not at start-up: the transform, which Helm runs on every
 * upgrade, never loads it unless a report is asked for.
 */
async function explainFiles(
  options: Omit<ExplainCommandOptions, 'output' | 'colour' | 'summary' | 'selection'>,
): Promise<{ explanation: Explanation; files: readonly string[] }> {
  const { explain } = await import('../explain/explain.ts');
  const { inputs, result } = transformFiles(options);
  return {
    explanation: explain(result, (document) => inputs.locate(document)),
    files: inputs.files,
  };
}

/** Runs `explain`. Exit 0 whatever the timelines show: it explains, `check` gates. */
async function runExplain(options: ExplainCommandOptions): Promise<CommandOutput> {
  if (options.summary && !SUMMARY_FORMATS.includes(options.output))
    throw new KubeGracefulError(
      'E_USAGE',
      `--summary is a text or markdown view; -o ${options.output} has every workload in full`,
      {},
      'drop --summary, or use -o text or -o markdown',
    );
  const { selectWorkloads } = await import('../explain/select.ts');
  const { explanation: whole, files } = await explainFiles(options);
  const explanation = selectWorkloads(whole, options.selection);
  const stdout = await EXPLAIN_RENDERERS[options.output](explanation, {
    colour: options.colour,
    summary: options.summary,
    ...(process.stdout.isTTY && process.stdout.columns ? { width: process.stdout.columns } : {}),
    files,
    version: `${VERSION} (${COMMIT})`,
  });
  return { stdout, stderr: [], exitCode: 0 };
}

/**
 * Returns true when text output may be coloured: stdout is a terminal and NO_COLOR is unset or
 * empty (no-color.org).
 */
export function colourWanted(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return stream.isTTY === true && !env['NO_COLOR'];
}

/** `a,b` → ['a', 'b']; absent → []. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Adds the `explain` subcommand to `program`. */
export function registerExplain(program: CommandUnknownOpts, run: Runner): void {
  const command = addSettingOptions(
    program
      .command('explain')
      .description(
        'show, per workload, the shutdown timeline as written and as patched: ' +
          'the model inputs and their sources, each derived number with its formula, ' +
          'and the windows in which requests would fail',
      )
      .argument('[files...]', 'manifest files (joined as one stream); - or none: stdin')
      .addOption(
        new Option(
          '-o, --output <format>',
          'output format: text, json, markdown, ' +
            'svg (a picture of each timeline) or html (a page of them)',
        )
          .choices(EXPLAIN_FORMATS)
          .default('text'),
      )
      .addOption(
        // One name in the help (-o, as kubectl's); --format still works, as older docs wrote it.
        new Option('--format <format>', 'the same as --output').choices(EXPLAIN_FORMATS).hideHelp(),
      )
      .option('--summary', 'one line per workload: its verdict as written → patched, its numbers')
      .option('--workload <names>', 'only the workloads of these names (comma-separated)')
      .option('--kind <kinds>', 'only workloads of these kinds (comma-separated)')
      .option(
        '--in-namespace <namespaces>',
        'only workloads in these namespaces (comma-separated; --namespace is the setting for ' +
          'resources that name none)',
      )
      .option('--log-file <file>', 'also write error messages here')
      .showHelpAfterError('(run kube-graceful explain --help for usage)')
      .exitOverride(),
  );
  command.action(async (files, options) => {
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(
      () =>
        runExplain({
          ...settingOptionsFrom(options),
          files,
          output: options.format ?? options.output,
          colour: colourWanted(),
          summary: options.summary === true,
          selection: {
            workloads: list(options.workload),
            kinds: list(options.kind),
            namespaces: list(options.inNamespace),
          },
        }),
      logFile,
    );
  });
}
