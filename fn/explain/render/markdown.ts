/**
 * `explain --output markdown`, for pull-request comments: a verdict table first (what a reviewer
 * reads), then per workload the inputs, the derived durations, the settings, and both timelines
 * folded in `<details>`. Every text that may hold the input's (a name, a message, a value) goes
 * through markdownText.ts: it renders as itself, never as markup.
 */
import { formatRef } from '../../core/kubeObject.ts';
import { countedSubjects, outcomeSentence } from './headline.ts';
import { markdownCode, markdownHtmlText, markdownText as cell } from './markdownText.ts';
import type { Explanation, WorkloadExplanation } from '../explain.ts';
import type { Timeline, TimelineWindow } from '../../explanation/timeline.ts';
import { NODE_SHUTDOWN_TITLE } from '../../explanation/nodeShutdown.ts';

/**
 * Returns the explanation as GitHub-flavoured Markdown (ends with a newline); with `summary`, only
 * the header and the verdict table (`explain --summary`, issue #29 item 6).
 */
export function renderMarkdown(
  explanation: Explanation,
  options: { readonly summary?: boolean } = {},
): string {
  const { settings, summary } = explanation;
  const lines: string[] = ['## kube-graceful explain', ''];
  lines.push(
    `Kubernetes ${cell(settings.kubernetesVersion)} (the oldest kubelet); ` +
      `Istio ${cell(settings.istioVersion)}` +
      ` and Linkerd ${cell(settings.linkerdVersion)} where a workload does not ` +
      `say. ` +
      `${countedSubjects(explanation.workloads)}. ${outcomeSentence(summary)}`,
  );
  if (explanation.workloads.length) {
    lines.push('', '| workload | as written | patched |', '|---|---|---|');
    for (const w of explanation.workloads)
      lines.push(
        `| ${cell(formatRef(w.resource))} | ${verdict(w.timelines.asWritten)} ` +
          `| ${verdict(w.timelines.patched)} |`,
      );
  }
  if (options.summary) return `${lines.join('\n')}\n`;
  for (const w of explanation.workloads) lines.push('', ...workload(w));
  if (explanation.leftAlone.length) {
    lines.push('', '### Left alone', '');
    for (const entry of explanation.leftAlone) {
      for (const f of entry.findings)
        lines.push(
          `- **${cell(formatRef(entry.resource))}** ` +
            `${f.severity} \`${f.code}\`: ${cell(f.message)}`,
        );
    }
  }
  return `${lines.join('\n')}\n`;
}

function workload(w: WorkloadExplanation): string[] {
  const where = w.location
    ? markdownCode(
        `${w.location.file}${w.location.line === undefined ? '' : `:${w.location.line}`}`,
      )
    : `document ${w.document}`;
  const lines = [
    `### ${cell(formatRef(w.resource))}`,
    '',
    `${where} · \`${w.mutator}\` · ${cell(w.summary)}`,
  ];
  if (w.inputs.length) {
    lines.push('', '**Inputs**', '', '| | input | value | source |', '|---|---|---:|---|');
    for (const i of w.inputs) {
      const value = i.unit ? `${i.value} s` : cell(String(i.value));
      lines.push(`| ${cell(i.symbol ?? '')} | ${cell(i.name)} | ${value} | ${cell(i.source)} |`);
    }
  }
  if (w.derived.length) {
    lines.push(
      '',
      '**Derived by the timing model**',
      '',
      '| | duration | value | formula |',
      '|---|---|---:|---|',
    );
    for (const d of w.derived)
      lines.push(
        `| ${d.symbol} | ${cell(d.name)} | ${d.seconds} s | \`${d.formula.replace(/`/g, "'")}\` |`,
      );
  }
  if (w.settings.length) {
    lines.push(
      '',
      '**Settings**',
      '',
      '| setting | as written | patched | plan |',
      '|---|---|---|---|',
    );
    for (const s of w.settings) {
      const plan = s.planned
        ? s.planned.met
          ? `✅ ${s.planned.symbol === 'mode' ? '' : s.planned.symbol}`
          : `❌ ${cell(`${s.planned.relation} ${String(s.planned.value)}`)}`
        : '';
      const asWritten = `${cell(s.asWritten.display)} <sub>${cell(s.asWritten.source)}</sub>`;
      const display = s.changed ? `**${cell(s.patched.display)}**` : cell(s.patched.display);
      const patched = `${display} <sub>${cell(s.patched.source)}</sub>`;
      lines.push(`| ${cell(s.name)} | ${asWritten} | ${patched} | ${plan.trim()} |`);
    }
  }
  lines.push(
    ...timeline('As written', w.timelines.asWritten),
    ...timeline('Patched', w.timelines.patched),
    ...(w.timelines.nodeShutdown ? timeline(NODE_SHUTDOWN_TITLE, w.timelines.nodeShutdown) : []),
  );
  if (w.findings.length) {
    lines.push('', '**Findings**', '');
    for (const f of w.findings)
      lines.push(
        `- ${f.severity} \`${f.code}\`${f.field ? ` at ${markdownCode(f.field)}` : ''}: ` +
          cell(f.message),
      );
  }
  return lines;
}

function timeline(title: string, t: Timeline): string[] {
  const lines = [
    '',
    // An HTML block: Markdown is not parsed up to the blank line after it, entities are.
    `<details><summary>${title}: ${icon(t.verdict)} ${markdownHtmlText(t.verdict.text)}</summary>`,
    '',
    '| t | who | what |',
    '|---:|---|---|',
  ];
  for (const e of t.events)
    lines.push(`| ${e.at === null ? 'never' : `${e.at} s`} | ${cell(e.actor)} | ${cell(e.text)} |`);
  lines.push('');
  for (const w of t.windows) lines.push(`- ${windowIcon(w)} **${span(w)}** ${cell(w.text)}`);
  lines.push('', '</details>');
  return lines;
}

function verdict(t: Timeline): string {
  return `${icon(t.verdict)} ${cell(t.verdict.text)}`;
}

const ICONS = { ok: '✅', fail: '❌', risk: '⚠️', unknown: '❔' } as const;

function icon(v: Timeline['verdict']): string {
  return ICONS[v.outcome];
}

/** A window that rests on something not modelled is as unknown as its verdict. */
function windowIcon(w: TimelineWindow): string {
  return w.unknown ? ICONS.unknown : ICONS[w.outcome];
}

function span(w: TimelineWindow): string {
  if (w.to === null) return `from ${w.from} s`;
  return w.to === w.from ? `${w.from} s` : `${w.from}–${w.to} s`;
}
