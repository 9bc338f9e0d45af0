/**
 * `check -o sarif`: SARIF 2.1.0 (OASIS), what GitHub code scanning and other CI servers read. One
 * result per pending change and per warning or error finding, as the text prints them; a finding
 * accepted on purpose is a result with a suppression (`inSource` for the object's annotation,
 * `external` for `--ignore`), which code scanning shows as dismissed. Each result names its rule
 * (a finding code, or a mutator's pending changes: checkRules.ts), its level, the object as a
 * logical location and, when it came from a file, `file:line` as a physical one.
 * test/cli/check-formats.test.ts validates the output against the OASIS schema.
 */
import { formatRef } from '../core/kubeObject.ts';
import type { ResourceRef } from '../core/kubeObject.ts';
import { printable } from '../core/printable.ts';
import type { Severity } from '../core/records.ts';
import { changeRule, findingRule } from './checkRules.ts';
import type { CheckRule } from './checkRules.ts';
import { changeFails, fieldOf } from './checkVerdict.ts';
import type { CheckFinding, CheckVerdict } from './checkVerdict.ts';
import { checkLines } from './checkText.ts';
import type { Location } from './inputs.ts';
import { VERSION } from './buildInfo.ts';

type Level = 'error' | 'warning' | 'note';

const LEVEL: Readonly<Record<Severity, Level>> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/** The input's text made printable line by line: a message may have lines, never controls. */
const lines = (text: string) => text.split('\n').map(printable).join('\n');

/** The stdin's name in locations: not a file, so it has no physical location. */
const STDIN = '<stdin>';

/**
 * Returns the SARIF log as JSON text. `docsUrl`, when given, is where the repository's files are
 * read on the web (`https://…/blob/v0.1.0/`): rules' `helpUri`s must be absolute, and there is no
 * published site to point at without it.
 */
export function renderSarif(verdict: CheckVerdict, docsUrl?: string): string {
  const rules: CheckRule[] = [];
  const ruleIndex = (rule: CheckRule) => {
    const at = rules.findIndex((r) => r.id === rule.id);
    return at === -1 ? rules.push(rule) - 1 : at;
  };
  const failing = changeFails(verdict);
  const results = [
    ...verdict.changes.map(({ record, location }) => {
      const rule = changeRule(record.mutator);
      const field = fieldOf(record.path);
      return {
        ruleId: rule.id,
        ruleIndex: ruleIndex(rule),
        level: failing ? 'error' : 'note',
        message: {
          text: lines(
            field
              ? `would set ${field}: ${record.reason}`
              : `would add ${formatRef(record.resource)}: ${record.reason}`,
          ),
        },
        locations: [place(location, record.madeFor?.resource ?? record.resource)],
      };
    }),
    ...[...verdict.findings, ...verdict.ignored]
      .filter(({ finding }) => finding.severity !== 'info')
      .map((f) => findingResult(f, ruleIndex)),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kube-graceful',
            version: VERSION,
            ...(docsUrl ? { informationUri: new URL('README.md', docsUrl).href } : {}),
            rules: rules.map((rule) => sarifRule(rule, docsUrl)),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            // The verdict line, for a reader that shows one: pass or fail and what was read.
            toolExecutionNotifications: [
              {
                level: verdict.failures.length ? 'error' : 'note',
                message: { text: checkLines(verdict).at(-1)! },
              },
            ],
          },
        ],
        results,
        properties: { read: verdict.read, failOn: verdict.failOn, failures: verdict.failures },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function findingResult(
  { finding, location, ignoredBy }: CheckFinding,
  ruleIndex: (rule: CheckRule) => number,
) {
  const rule = findingRule(finding.code);
  return {
    ruleId: rule.id,
    ruleIndex: ruleIndex(rule),
    level: LEVEL[finding.severity],
    message: { text: lines(finding.message) },
    locations: [place(location, finding.resource)],
    ...(ignoredBy
      ? {
          suppressions: [
            ignoredBy === 'annotation'
              ? { kind: 'inSource', justification: 'kube-graceful.dev/ignore annotation' }
              : { kind: 'external', justification: 'kube-graceful check --ignore' },
          ],
        }
      : {}),
  };
}

/** A location: the file and line when known, and the object by name. */
function place(location: Location | undefined, resource: ResourceRef | undefined) {
  const physical =
    location && location.file !== STDIN
      ? {
          physicalLocation: {
            // A relative path is a relative reference, resolved against the repository root by
            // code scanning (checkout paths are what the action passes).
            artifactLocation: { uri: fileUri(location.file) },
            ...(location.line !== undefined ? { region: { startLine: location.line } } : {}),
          },
        }
      : {};
  return {
    ...physical,
    ...(resource
      ? {
          logicalLocations: [
            { fullyQualifiedName: printable(formatRef(resource)), kind: 'object' },
          ],
        }
      : {}),
  };
}

/** A path as a URI reference: each segment percent-encoded, `/` kept (`my dir/a.yaml`). */
function fileUri(path: string): string {
  const slashed = path.replaceAll('\\', '/');
  const encoded = slashed.split('/').map(encodeURIComponent).join('/');
  return slashed.startsWith('/') ? `file://${encoded}` : encoded;
}

function sarifRule(rule: CheckRule, docsUrl: string | undefined) {
  const link = docsUrl ? new URL(rule.doc, docsUrl).href : rule.doc;
  return {
    id: rule.id,
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.description },
    help: {
      text: `${rule.description} Documentation: ${link}`,
      markdown: `${rule.description}\n\nDocumentation: [${rule.doc}](${link})`,
    },
    ...(docsUrl ? { helpUri: link } : {}),
  };
}
