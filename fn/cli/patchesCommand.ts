/**
 * `kube-graceful patches [FILE…|-]` (issue #17): the transform's change records as the kustomize
 * patches a Flux `HelmRelease` applies after rendering (`spec.postRenderers[].kustomize.patches`),
 * ready to paste. Same inputs and settings as the transform; docs/integrations/flux.md.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { addsObject } from '../core/records.ts';
import type { ChangeRecord } from '../core/records.ts';
import { inputResources } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import type { PatchedObject } from '../report/patches.ts';
import { formatRef } from '../core/kubeObject.ts';
import { helmValuesFor, setsControllerConfig } from '../mutators/envoy-gateway/helmValues.ts';
import { printable } from '../core/printable.ts';
import type { Runner } from './explainCommand.ts';
import { findingLines, transformFiles } from './transformFiles.ts';
import { addSettingOptions, settingOptionsFrom } from './settingsOptions.ts';
import type { SettingOptions } from './settingsOptions.ts';
import type { CommandOutput } from './transformCommand.ts';

/** Options of `patches`, as the CLI parsed them. */
interface PatchesCommandOptions extends SettingOptions {
  readonly files: readonly string[];
}

const HEADER =
  "# kube-graceful patches: paste under a HelmRelease's spec.postRenderers[].kustomize.patches\n";

/** Runs `patches`; exit 1 with nothing on stdout on error findings, as the transform. */
async function runPatches(options: PatchesCommandOptions): Promise<CommandOutput> {
  const { inputs, result } = transformFiles(options);
  const stderr = findingLines(result, inputs);
  if (result.findings.some((f) => f.severity === 'error')) {
    stderr.push('kube-graceful patches: error findings above; no patches written.');
    return { stdout: '', stderr, exitCode: 1 };
  }
  // A patch edits an object that is there; it cannot add one (kustomize's `patches:` field and
  // Flux's postRenderers kustomize.patches). Half of the edit (a Gateway pointed at a ConfigMap
  // that is not there) would break the gateway: istiod deploys nothing for it.
  const added = result.changes.filter(addsObject);
  if (added.length > 0) {
    stderr.push(
      ...added.map(
        (c) =>
          `kube-graceful patches: ${printable(formatRef(c.resource))} would be added ` +
          `(${c.madeFor ? `for ${printable(formatRef(c.madeFor.resource))}` : c.mutator}), ` +
          'and a kustomize patch cannot add an object. Render it with the chart ' +
          '(for a Gateway: an empty ConfigMap its spec.infrastructure.parametersRef names, ' +
          'which kube-graceful then fills), then run patches again; no patches written.',
      ),
    );
    return { stdout: '', stderr, exitCode: 1 };
  }
  // Envoy Gateway's config is one string: a patch would carry all of it, image tags included, and
  // undo the chart's next upgrade (issue #27 item 10). Its fields are Helm values instead.
  const wholeConfig = result.changes.filter(
    (c) => c.mutator === 'envoy-gateway' && setsControllerConfig(c.path),
  );
  if (wholeConfig.length > 0) {
    stderr.push(
      ...wholeConfig.map(
        (c) =>
          `kube-graceful patches: ${printable(formatRef(c.resource))} holds Envoy Gateway's ` +
          `config as one string (data["envoy-gateway.yaml"]); a kustomize patch would replace ` +
          `it whole, image tags included, and undo the chart's next upgrade. Set these Helm ` +
          `values in the HelmRelease instead:\n` +
          helmValuesFor(String(c.before), String(c.after))
            .map((line) => `  --set-string ${printable(line)}`)
            .join('\n'),
      ),
      'kube-graceful patches: no patches written; with the values set, run patches again ' +
        '(or --envoy-gateway-mode off for the other objects).',
    );
    return { stdout: '', stderr, exitCode: 1 };
  }
  // Loaded here, not at start-up: the transform Helm runs on every upgrade never needs it.
  const { kustomizePatches, renderPatches } = await import('../report/patches.ts');
  return {
    stdout: HEADER + renderPatches(kustomizePatches(patchedObjects(result))),
    stderr,
    exitCode: 0,
  };
}

/** Returns each changed object as it was read, with its records, in input order. */
export function patchedObjects(result: TransformResult): PatchedObject[] {
  const resources = inputResources(result);
  const byObject = new Map<string, ChangeRecord[]>();
  for (const record of result.changes) {
    const key = `${record.document}:${formatRef(record.resource)}`;
    byObject.set(key, [...(byObject.get(key) ?? []), record]);
  }
  return resources.flatMap((resource) => {
    const ref = resource.ref(result.config.spec.namespace);
    const records = byObject.get(`${resource.doc.place.document}:${formatRef(ref)}`);
    return records ? [{ ref, original: resource.object, records }] : [];
  });
}

/** Adds the `patches` subcommand to `program`. */
export function registerPatches(program: CommandUnknownOpts, run: Runner): void {
  const command = addSettingOptions(
    program
      .command('patches')
      .description(
        'print the changes as kustomize patches (strategic merge, ' +
          "or JSON 6902 for custom kinds) for a Flux HelmRelease's " +
          'postRenderers[].kustomize.patches',
      )
      .argument('[files...]', 'manifest files (joined as one stream); - or none: stdin')
      .option('--log-file <file>', 'also write error messages here')
      .showHelpAfterError('(run kube-graceful patches --help for usage)')
      .exitOverride(),
  );
  command.action(async (files, options) => {
    const logFile = options.logFile ?? process.env['KUBE_GRACEFUL_LOG_FILE'];
    await run(() => runPatches({ ...settingOptionsFrom(options), files }), logFile);
  });
}
