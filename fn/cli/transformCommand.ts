/**
 * The default command: manifests on stdin, the patched stream (or ResourceList) on stdout. This is
 * what Helm 3 (`--post-renderer`), the Helm 4 plugin, kustomize and kpt run.
 */
import { readConfigText } from '../config/load.ts';
import type { ConfigSource } from '../config/load.ts';
import { transform } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import { reportData, toJsonText } from '../report/json.ts';
import { textReport } from '../report/text.ts';
import { findingLine } from './findingsText.ts';
import { findingLocation, inFiles, readInputs } from './inputs.ts';
import { readInputFile, readStdinBytes } from './io.ts';
import { writeSideFile } from './sideFiles.ts';

/** Options of the transform command, as the CLI parsed them. */
export interface TransformCommandOptions {
  /** Files read as one stream, as `explain` and `check` read them; stdin when empty or `-`. */
  readonly files?: readonly string[];
  readonly config?: string;
  readonly report?: string;
  readonly reportFormat?: 'text' | 'json';
  readonly diff?: boolean;
  readonly allDocuments?: boolean;
  readonly flags: Readonly<Record<string, string | undefined>>;
}

/** What the command prints and its exit code; written by the entry point only at the end. */
export interface CommandOutput {
  /** Text, or the chunks of bytes of a stream the transform kept as bytes. */
  readonly stdout: string | readonly Uint8Array[];
  readonly stderr: string[];
  readonly exitCode: number;
}

/** Returns the config document named by `--config`, if any. */
export function configFromOption(path: string | undefined): ConfigSource | undefined {
  return path === undefined
    ? undefined
    : readConfigText(readInputFile(path), `config ${path}`, path);
}

/**
 * Runs the transform over stdin (or over `stdin`, the bytes a test hands in: the same path, in
 * process); throws KubeGracefulError on bad input or config.
 */
export async function runTransform(
  options: TransformCommandOptions,
  stdin?: Buffer,
): Promise<CommandOutput> {
  const config = configFromOption(options.config);
  // stdin alone stays bytes (the fast path Helm uses); named files are joined as explain joins
  // them.
  const files = options.files ?? [];
  const inputs =
    files.length === 0 || (files.length === 1 && files[0] === '-') ? undefined : readInputs(files);
  const input = inputs ? inputs.text : (stdin ?? readStdinBytes());
  // An empty KUBE_GRACEFUL_REPORT is unset, as shells treat an empty variable; an empty --report
  // is a mistake, refused by writeSideFile rather than dropped.
  const reportPath = options.report ?? (process.env['KUBE_GRACEFUL_REPORT'] || undefined);
  // The outcomes (a few KB a workload) are kept only for the report, which explains them, and
  // the change records and info findings only for the report too: without one, only warnings
  // and errors are printed.
  const run = () =>
    transform(input, {
      flags: options.flags,
      parseAll: options.allDocuments ?? false,
      outcomes: reportPath !== undefined,
      records: reportPath !== undefined,
      ...(config ? { config } : {}),
    });
  const result = inputs ? inFiles(inputs, run) : run();
  if (reportPath !== undefined)
    writeSideFile(
      reportPath,
      await report(
        result,
        options.reportFormat ?? (reportPath.endsWith('.json') ? 'json' : 'text'),
      ),
    );
  // Named files: each line says where in them (issue #28); stdin alone has no file to name.
  const stderr = result.findings
    .filter((f) => f.severity !== 'info')
    .map((f) => findingLine(f, inputs ? findingLocation(f, inputs) : undefined));
  const failed = result.findings.some((f) => f.severity === 'error');
  if (failed && result.mode === 'stream') {
    // Stream mode: nothing on stdout, so Helm fails instead of applying a half-fixed release.
    stderr.push(
      'kube-graceful: error findings above; no output written. ' +
        'Fix them or switch the mutator off for that workload (kube-graceful.dev/skip: "true").',
    );
    return { stdout: '', stderr, exitCode: 1 };
  }
  const stdout = options.diff ? await unifiedDiff(result) : (result.outputChunks ?? result.output);
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

/**
 * The report: explain's timeline for the patched output (issue #7: Helm users keep it in a file
 * because Helm hides stderr), then every change record and finding. Explain is loaded only here.
 */
async function report(result: TransformResult, format: 'text' | 'json'): Promise<string> {
  const [{ explain }, { renderText }] = await Promise.all([
    import('../explain/explain.ts'),
    import('../explain/render/text.ts'),
  ]);
  const explanation = explain(result);
  if (format === 'json') {
    return toJsonText({
      ...reportData(result.changes, result.findings, result.config),
      explain: explanation,
    });
  }
  const report = textReport(result.changes, result.findings, result.config);
  return `${renderText(explanation, { colour: false })}\n${report}`;
}

/** The diff is loaded only when `--diff` asks for it (start-up stays near bare node). */
async function unifiedDiff(result: TransformResult): Promise<string> {
  const { unifiedDiff: diff } = await import('../report/diff.ts');
  return diff(result.input, result.output);
}
