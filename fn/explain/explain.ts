/**
 * `explain`: for each workload a mutator handled, the model's inputs and where each came from, the
 * durations the timing model derived (with formulas), the settings before and after, and the
 * shutdown timeline as written and as patched (./timeline.ts).
 *
 * One source of truth (issue #7): every derived number is the mutator's own TimingPlan (the
 * `plan` of its outcome), every patched value is the manifest the change records produced, and
 * the as-written values are the input manifest. Nothing here computes a duration.
 */
import type { Config, Spec } from '../config/schema.ts';
import { formatPath, getAt } from '../document/path.ts';
import type { FieldPath } from '../document/path.ts';
import type { WorkloadOutcome } from '../engine/pipeline.ts';
import type { ChangeRecord, Finding, MutatorId, Severity } from '../engine/records.ts';
import { inputResources } from '../engine/transform.ts';
import type { TransformResult } from '../engine/transform.ts';
import { LOAD_BALANCERS } from '../timing/loadBalancers.ts';
import { mountsPodAnnotations } from '../workloads/podAnnotationsFile.ts';
import { proxyConfigOf } from './platform.ts';
import { parseGoDurationSeconds } from '../timing/durations.ts';
import { PROXY_CONFIG_ANNOTATION } from '../mutators/shared/proxyConfig.ts';
import type { LoadBalancerProvider } from '../timing/loadBalancers.ts';
import type { Derived, TimingInputs, TimingPlan } from '../timing/model.ts';
import { formatRef } from '../workloads/kubeObject.ts';
import type { Container, KubeObject, PodTemplate, ResourceRef } from '../workloads/kubeObject.ts';
import type { AppPlan } from '../mutators/app/index.ts';
import type { JobPlan } from '../mutators/job/index.ts';
import type { GatewayPlan } from '../mutators/gateway/index.ts';
import { isWrapped } from '../mutators/job/wrapper.ts';
import { httpClientOf } from '../mutators/job/images.ts';
import { istioQuitExit } from '../mutators/job/istioQuit.ts';
import type { QuitExit } from '../mutators/job/istioQuit.ts';
import { renderInjectedIstio } from '../workloads/renderInjected.ts';
import {
  graceOf,
  istioDrainSettings,
  istioSidecarKind,
  linkerdSidecarKind,
  linkerdWaitOf,
  preStopOf,
} from './platform.ts';
import type { Valued } from './platform.ts';
import { appTimeline, gatewayTimeline, jobTimeline } from './timeline.ts';
import type { AppState, GatewayState, JobState, Timeline, Traffic } from './timeline.ts';

/** Version of the JSON shape (`--output json`); documented in docs/explain-schema.md. */
export const EXPLAIN_SCHEMA = 'kube-graceful.dev/explain/v1';

/** Where a document starts in the files the user named (`line` absent when only the file is known). */
export interface SourceLocation {
  readonly file: string;
  readonly line?: number;
}

/** One input of the model: a number of seconds (W, R, B …) or a decision, and where it came from. */
export interface ModelInput {
  readonly symbol?: string;
  readonly name: string;
  readonly value: number | string | boolean;
  /** `s` when the value is seconds. */
  readonly unit?: 's';
  readonly source: string;
}

/** One duration the timing model derived: the mutator's own `Derived`, unchanged. */
export interface ModelOutput {
  readonly symbol: 'S' | 'G' | 'M' | 'D' | 'T';
  readonly name: string;
  readonly seconds: number;
  readonly formula: string;
  readonly explanation: string;
}

/** A setting's value in one state: raw value, how it reads, and where it came from. */
export interface SettingValue {
  readonly value: number | string | boolean | null;
  readonly display: string;
  readonly source: string;
}

/** A setting the shutdown depends on, as written and as patched, and what the plan wanted. */
export interface SettingRow {
  readonly name: string;
  readonly asWritten: SettingValue;
  readonly patched: SettingValue;
  /**
   * True when the run wrote this setting: its value or where it comes from changed (an Istio
   * default made explicit keeps its value but is now the manifest's), as "Fields set" lists it.
   */
  readonly changed: boolean;
  /** The plan's number for this setting, and whether the patched value meets it. */
  readonly planned?: { readonly symbol: ModelOutput['symbol'] | 'mode'; readonly value: number | string | boolean; readonly relation: '=' | '≥'; readonly met: boolean };
}

/** A finding about this workload, as the run reported it. */
export interface ExplainedFinding {
  readonly severity: Severity;
  readonly code: string;
  readonly field?: string;
  readonly message: string;
}

/** Everything `explain` says about one workload. */
export interface WorkloadExplanation {
  readonly resource: ResourceRef;
  readonly document: number;
  readonly location?: SourceLocation;
  readonly mutator: MutatorId;
  readonly role: 'gateway' | 'app' | 'job';
  readonly summary: string;
  readonly inputs: readonly ModelInput[];
  readonly derived: readonly ModelOutput[];
  readonly settings: readonly SettingRow[];
  readonly timelines: { readonly asWritten: Timeline; readonly patched: Timeline };
  readonly changes: ReadonlyArray<{ readonly field: string; readonly before: unknown; readonly after: unknown }>;
  readonly findings: readonly ExplainedFinding[];
}

/** A workload no mutator planned for, and why (its findings). */
export interface LeftAlone {
  readonly resource: ResourceRef;
  readonly document: number;
  readonly location?: SourceLocation;
  readonly findings: readonly ExplainedFinding[];
}

/** The whole `explain` document (`--output json` prints exactly this). */
export interface Explanation {
  readonly schema: typeof EXPLAIN_SCHEMA;
  readonly settings: {
    readonly kubernetesVersion: string;
    readonly istioVersion: string;
    readonly linkerdVersion: string;
    /** Where each non-default setting came from, keyed by spec path. */
    readonly sources: Readonly<Record<string, string>>;
  };
  readonly workloads: readonly WorkloadExplanation[];
  readonly leftAlone: readonly LeftAlone[];
  readonly summary: { readonly workloads: number; readonly failingAsWritten: number; readonly failingPatched: number; readonly fieldsChanged: number };
}

/** Returns the explanation of a run. `locate` maps a document number to its file and line. */
export function explain(result: TransformResult, locate: (document: number) => SourceLocation | undefined = () => undefined): Explanation {
  const before = inputObjects(result);
  const workloads: WorkloadExplanation[] = [];
  for (const outcome of result.outcomes) {
    const document = outcome.workload.resource.doc.place.document;
    const key = objectKey(document, outcome.workload.resource.base);
    const original = before.get(key);
    if (!original) continue;
    const explained = explainOutcome(outcome, original, result, locate(document));
    if (explained) workloads.push(explained);
  }
  const handled = new Set(workloads.map((w) => `${w.document}:${formatRef(w.resource)}`));
  const leftAlone = new Map<string, LeftAlone>();
  for (const finding of result.findings) {
    if (!finding.resource || finding.document === undefined) continue;
    const key = `${finding.document}:${formatRef(finding.resource)}`;
    if (handled.has(key)) continue;
    const location = locate(finding.document);
    const entry = leftAlone.get(key) ?? { resource: finding.resource, document: finding.document, ...(location ? { location } : {}), findings: [] };
    (entry.findings as ExplainedFinding[]).push(explainedFinding(finding));
    leftAlone.set(key, entry);
  }
  return {
    schema: EXPLAIN_SCHEMA,
    settings: settingsOf(result.config),
    workloads,
    leftAlone: [...leftAlone.values()],
    summary: {
      workloads: workloads.length,
      failingAsWritten: workloads.filter((w) => w.timelines.asWritten.verdict.failures > 0).length,
      failingPatched: workloads.filter((w) => w.timelines.patched.verdict.failures > 0).length,
      fieldsChanged: result.changes.length,
    },
  };
}

function settingsOf(config: Config): Explanation['settings'] {
  return {
    kubernetesVersion: config.spec.kubernetesVersion,
    istioVersion: config.spec.istioVersion,
    linkerdVersion: config.spec.linkerdVersion,
    sources: Object.fromEntries(config.provenance),
  };
}

/** The input's objects, keyed by document and place in it: the manifest as written. */
function inputObjects(result: TransformResult): Map<string, KubeObject> {
  return new Map(inputResources(result).map((r) => [objectKey(r.doc.place.document, r.base), r.object]));
}

function objectKey(document: number, base: FieldPath): string {
  return `${document}:${JSON.stringify(base)}`;
}

/** The parts of an outcome every explanation needs, whatever the mutator. */
interface Context {
  readonly outcome: WorkloadOutcome;
  readonly before: PodTemplate;
  readonly after: PodTemplate;
  readonly spec: Spec;
  readonly changes: readonly ChangeRecord[];
  readonly findings: readonly Finding[];
}

function explainOutcome(outcome: WorkloadOutcome, original: KubeObject, result: TransformResult, location: SourceLocation | undefined): WorkloadExplanation | undefined {
  const { workload } = outcome;
  const document = workload.resource.doc.place.document;
  const sameResource = (r: { resource?: ResourceRef; document?: number }) => r.document === document && r.resource !== undefined && formatRef(r.resource) === formatRef(workload.ref);
  const context: Context = {
    outcome,
    before: (getAt(original, workload.templatePath) ?? {}) as PodTemplate,
    after: workload.template,
    spec: result.config.spec,
    changes: result.changes.filter(sameResource),
    findings: result.findings.filter(sameResource),
  };
  const body = outcome.mutator === 'gateway-drain' ? gatewayExplanation(context) : outcome.mutator === 'app-graceful' ? appExplanation(context) : jobExplanation(context);
  if (!body) return undefined;
  return {
    resource: workload.ref,
    document,
    ...(location ? { location } : {}),
    mutator: outcome.mutator,
    ...body,
    changes: context.changes.map((c) => ({ field: formatPath(c.path), before: c.before, after: c.after })),
    findings: context.findings.map(explainedFinding),
  };
}

function explainedFinding(finding: Finding): ExplainedFinding {
  return { severity: finding.severity, code: finding.code, ...(finding.path ? { field: formatPath(finding.path) } : {}), message: finding.message };
}

type Body = Pick<WorkloadExplanation, 'role' | 'summary' | 'inputs' | 'derived' | 'settings' | 'timelines'>;

// ---- the plans the mutators hand over (MutatorOutcome.plan), read defensively ----

interface TimedPlan {
  readonly inputs: TimingInputs;
  readonly plan: TimingPlan;
}

function isTimed(plan: unknown): plan is TimedPlan {
  const p = plan as Partial<TimedPlan> | null;
  return typeof p === 'object' && p !== null && typeof p.inputs?.drainWindow?.value === 'number' && typeof p.plan?.graceSeconds?.value === 'number';
}

/** gateway-drain's GatewayPlan (fn/mutators/gateway/index.ts). */
interface GatewayPlanView extends TimedPlan {
  readonly mode: 'env' | 'sleep';
  readonly shape: 'injected' | 'legacy';
  readonly loadBalancer?: { readonly provider: LoadBalancerProvider; readonly evidence: string };
  readonly istio?: { readonly version: string; readonly source: string };
  readonly terminationDrainSeconds?: Derived;
}

/** app-graceful's AppPlan (fn/mutators/app/timing.ts). */
interface AppPlanView extends TimedPlan {
  readonly sidecar: 'native' | 'classic' | 'none';
  readonly mesh: { readonly istio?: { readonly evidence: string }; readonly linkerd?: { readonly evidence: string }; readonly ambient?: { readonly evidence: string } };
  readonly servingContainers: readonly string[];
  readonly effectiveGraceSeconds?: number;
}

/** Compile-time link: the mutators' plans must stay readable as the views above (tsc fails otherwise). */
type Readable<Plan extends View, View> = Plan;
export type ExplainReadsGatewayPlan = Readable<GatewayPlan, GatewayPlanView>;
export type ExplainReadsAppPlan = Readable<AppPlan, AppPlanView>;
export type ExplainReadsJobPlan = Readable<JobPlan, JobPlanView>;

/** job-sidecar-quit's plan (fn/mutators/job/index.ts). */
interface JobPlanView {
  readonly mode: 'native' | 'wrap';
  readonly why: string;
  readonly meshes: ReadonlyArray<'istio' | 'linkerd'>;
  /** The engine's evidence per mesh. */
  readonly mesh: { readonly istio?: { readonly evidence: string }; readonly linkerd?: { readonly evidence: string } };
}

function inputsOf(inputs: TimingInputs): ModelInput[] {
  const rows: ModelInput[] = [
    { symbol: 'W', name: 'drain window', value: inputs.drainWindow.value, unit: 's', source: stripSymbol(inputs.drainWindow.source, 'W') },
    { symbol: 'R', name: 'longest request', value: inputs.maxRequest.value, unit: 's', source: stripSymbol(inputs.maxRequest.source, 'R') },
    { symbol: 'B', name: 'buffer', value: inputs.buffer.value, unit: 's', source: stripSymbol(inputs.buffer.source, 'B') },
  ];
  const dereg = inputs.loadBalancer?.deregistrationDelaySeconds;
  if (dereg) {
    rows.push({ name: 'LB deregistration delay', value: dereg.value, unit: 's', source: `${dereg.source}; connection termination ${inputs.loadBalancer?.connectionTermination ? 'on' : 'off'}` });
  }
  return rows;
}

/** Sources from fn/timing/inputs.ts start with their symbol ("W: Service …", "R (default; …)"). */
function stripSymbol(source: string, symbol: string): string {
  if (!source.startsWith(symbol)) return source;
  const rest = source.slice(symbol.length).replace(/^:\s*/, '').trim();
  return rest.startsWith('(') && rest.endsWith(')') ? rest.slice(1, -1) : rest;
}

function output(symbol: ModelOutput['symbol'], name: string, derived: Derived): ModelOutput {
  return { symbol, name, seconds: derived.value, formula: derived.formula, explanation: derived.explanation };
}

function traffic(inputs: TimingInputs, sender: string): Traffic {
  const dereg = inputs.loadBalancer?.deregistrationDelaySeconds;
  return {
    drainWindowSeconds: inputs.drainWindow.value,
    maxRequestSeconds: inputs.maxRequest.value,
    sender,
    ...(dereg ? { deregistration: { seconds: dereg.value, connectionTermination: inputs.loadBalancer?.connectionTermination === true } } : {}),
  };
}

// ---- settings rows ----

function seconds(valued: Valued<number>): SettingValue {
  return { value: valued.value, display: `${valued.value} s`, source: valued.source };
}

function flag(valued: Valued<boolean>): SettingValue {
  return { value: valued.value, display: valued.value ? 'on' : 'off', source: valued.source };
}

function text(valued: Valued<string>): SettingValue {
  return { value: valued.value, display: valued.value, source: valued.source };
}

function row(name: string, asWritten: SettingValue, patched: SettingValue, planned?: { symbol: ModelOutput['symbol'] | 'mode'; value: number | string | boolean; relation: '=' | '≥' }): SettingRow {
  const met = planned === undefined
    ? true
    : planned.relation === '=' ? patched.value === planned.value : typeof patched.value === 'number' && typeof planned.value === 'number' && patched.value >= planned.value;
  return {
    name,
    asWritten,
    patched,
    changed: asWritten.value !== patched.value || asWritten.source !== patched.source,
    ...(planned ? { planned: { ...planned, met } } : {}),
  };
}

function preStopValue(container: Container | undefined): SettingValue {
  const read = preStopOf(container);
  return { value: read.seconds === 'unknown' ? read.text : read.seconds, display: read.text, source: read.handler ? 'manifest' : 'no hook' };
}

function container(template: PodTemplate, name: string): Container | undefined {
  return (template.spec?.containers ?? []).find((c) => c.name === name);
}

// ---- gateway-drain ----

function gatewayExplanation(context: Context): Body | undefined {
  const plan = context.outcome.plan;
  if (!isTimed(plan)) return undefined;
  const view = plan as GatewayPlanView;
  const { inputs } = view;
  const shape = view.shape === 'legacy' ? 'legacy' : 'injected';
  const proxyName = proxyContainerName(context.after, shape);
  const state = (template: PodTemplate): GatewayState => {
    const proxy = container(template, proxyName);
    return {
      proxy: proxyName,
      grace: graceOf(template),
      preStop: preStopOf(proxy),
      istio: istioDrainSettings({ template, ...(proxy ? { container: proxy } : {}), injected: shape === 'injected', readsAnnotationsFile: proxy !== undefined && mountsPodAnnotations(template, proxy) }),
    };
  };
  const before = state(context.before);
  const after = state(context.after);
  const lb = view.loadBalancer ? LOAD_BALANCERS[view.loadBalancer.provider]?.label : undefined;
  const sender = lb ? `from the load balancer (${lb})` : 'from clients whose endpoints are not yet updated';
  const env = view.mode === 'env';
  const p = view.plan;
  const derived: ModelOutput[] = [
    output('S', env ? 'serve before exit' : 'preStop sleep', p.preStopSeconds),
    output('G', 'grace period', p.graceSeconds),
    ...(env ? [output('M', 'MINIMUM_DRAIN_DURATION', p.minimumDrainSeconds), output('D', 'drainDuration', p.drainDurationSeconds)] : []),
    ...(view.terminationDrainSeconds ? [output('T', 'terminationDrainDuration', view.terminationDrainSeconds)] : []),
  ];
  const istioText = view.istio ? `; Istio ${view.istio.version} (${view.istio.source})` : '';
  const ignored = (v: SettingValue, exitOnZero: boolean): SettingValue => (exitOnZero ? { ...v, display: `${v.display} (unused: exit-on-zero)` } : v);
  const settings: SettingRow[] = [
    row('terminationGracePeriodSeconds', seconds(before.grace), seconds(after.grace), { symbol: 'G', value: p.graceSeconds.value, relation: '=' }),
    row(`${proxyName} preStop`, preStopValue(container(context.before, proxyName)), preStopValue(container(context.after, proxyName)), env ? undefined : { symbol: 'S', value: p.preStopSeconds.value, relation: '=' }),
    row('EXIT_ON_ZERO_ACTIVE_CONNECTIONS', flag(before.istio.exitOnZero), flag(after.istio.exitOnZero), env ? { symbol: 'mode', value: true, relation: '=' } : undefined),
    row('MINIMUM_DRAIN_DURATION', seconds(before.istio.minimumDrainSeconds), seconds(after.istio.minimumDrainSeconds), env ? { symbol: 'M', value: p.minimumDrainSeconds.value, relation: '=' } : undefined),
    row('drainDuration', seconds(before.istio.drainDurationSeconds), seconds(after.istio.drainDurationSeconds), env ? { symbol: 'D', value: p.drainDurationSeconds.value, relation: '≥' } : undefined),
    row('terminationDrainDuration', ignored(seconds(before.istio.terminationDrainSeconds), before.istio.exitOnZero.value), ignored(seconds(after.istio.terminationDrainSeconds), after.istio.exitOnZero.value), view.terminationDrainSeconds ? { symbol: 'T', value: view.terminationDrainSeconds.value, relation: '≥' } : undefined),
    // Istio < 1.17 rejects a parentShutdownDuration not above drainDuration (fn/mutators/gateway/parentShutdown.ts); shown where either side sets it.
    ...parentShutdownRows(context, shape, proxyName),
  ];
  const trafficInputs = traffic(inputs, sender);
  return {
    role: 'gateway',
    summary: `Istio gateway (${shape === 'injected' ? 'gateway chart, injected' : 'legacy chart, not injected'}), ${view.mode} mode${istioText}`,
    inputs: inputsOf(inputs),
    derived,
    settings,
    timelines: { asWritten: gatewayTimeline(before, trafficInputs), patched: gatewayTimeline(after, trafficInputs) },
  };
}

/** A parentShutdownDuration row, when the annotation sets one as written or as patched. */
function parentShutdownRows(context: Context, shape: 'injected' | 'legacy', proxyName: string): SettingRow[] {
  const read = (template: PodTemplate): SettingValue | undefined => {
    const proxy = container(template, proxyName);
    if (shape !== 'injected' && !(proxy && mountsPodAnnotations(template, proxy))) return undefined;
    const raw = proxyConfigOf(template).fields['parentShutdownDuration'];
    if (raw === undefined || raw === null) return undefined;
    const value = parseGoDurationSeconds(String(raw));
    return value === undefined
      ? { value: String(raw), display: String(raw), source: `${PROXY_CONFIG_ANNOTATION} (not a Go duration)` }
      : { value: Math.ceil(value), display: `${Math.ceil(value)} s`, source: PROXY_CONFIG_ANNOTATION };
  };
  const before = read(context.before);
  const after = read(context.after);
  if (!before && !after) return [];
  const unset: SettingValue = { value: 60, display: '60 s', source: 'Istio default up to 1.16 (not set); ignored from 1.17' };
  return [row('parentShutdownDuration', before ?? unset, after ?? unset)];
}

/** The gateway's proxy container: `istio-proxy` (injected), or the proxyv2 container (legacy). */
function proxyContainerName(template: PodTemplate, shape: 'injected' | 'legacy'): string {
  const containers = template.spec?.containers ?? [];
  if (shape === 'injected') return 'istio-proxy';
  return containers.find((c) => /\/proxyv2(?::|@|$)/.test(c.image ?? ''))?.name ?? 'istio-proxy';
}

// ---- app-graceful ----

function appExplanation(context: Context): Body | undefined {
  const plan = context.outcome.plan;
  if (!isTimed(plan)) return undefined;
  const view = plan as AppPlanView;
  const { inputs } = view;
  const p = view.plan;
  const serving = Array.isArray(view.servingContainers) ? view.servingContainers : [];
  const mesh = view.mesh ?? {};
  const state = (template: PodTemplate): AppState => ({
    grace: graceOf(template),
    containers: serving.map((name) => ({ name, preStop: preStopOf(container(template, name)) })),
    ...(mesh.istio ? { istio: { kind: istioSidecarKind(template, context.spec), drain: istioDrainSettings({ template, injected: true, ...renderedProxy(template) }) } } : {}),
    ...(mesh.linkerd ? { linkerd: { kind: linkerdSidecarKind(template, context.spec), wait: linkerdWaitOf(template) } } : {}),
  });
  const before = state(context.before);
  const after = state(context.after);
  const sidecar = view.sidecar;
  const exitOnZero = after.istio?.drain.exitOnZero.value === true;
  const derived: ModelOutput[] = [output('S', 'preStop sleep', p.preStopSeconds), output('G', 'grace period', p.graceSeconds)];
  const settings: SettingRow[] = [row('terminationGracePeriodSeconds', seconds(before.grace), seconds(after.grace), { symbol: 'G', value: p.graceSeconds.value, relation: '≥' })];
  for (const name of serving) {
    // S is one container's when the pod has one serving container; a hook of unknown length keeps the model's assumption.
    const patched = preStopValue(container(context.after, name));
    settings.push(row(`${name} preStop`, preStopValue(container(context.before, name)), patched, serving.length === 1 && typeof patched.value === 'number' ? { symbol: 'S', value: p.preStopSeconds.value, relation: '=' } : undefined));
  }
  if (before.istio && after.istio) {
    const kindRow = (v: Valued<string>) => text(v);
    settings.push(row('istio-proxy sidecar', kindRow(before.istio.kind), kindRow(after.istio.kind), sidecar === 'none' ? undefined : { symbol: 'mode', value: sidecar, relation: '=' }));
    if (after.istio.kind.value === 'classic') {
      // Either way the classic proxy's wait is T = S + R (fn/mutators/app/istioClassicDrain.ts).
      derived.push(output('T', exitOnZero ? 'MINIMUM_DRAIN_DURATION' : 'terminationDrainDuration', p.sidecarOutlivesSeconds));
      settings.push(
        row('EXIT_ON_ZERO_ACTIVE_CONNECTIONS', flag(before.istio.drain.exitOnZero), flag(after.istio.drain.exitOnZero)),
        row('MINIMUM_DRAIN_DURATION', seconds(before.istio.drain.minimumDrainSeconds), seconds(after.istio.drain.minimumDrainSeconds), exitOnZero ? { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' } : undefined),
        row('terminationDrainDuration', seconds(before.istio.drain.terminationDrainSeconds), seconds(after.istio.drain.terminationDrainSeconds), exitOnZero ? undefined : { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' }),
        row('drainDuration', seconds(before.istio.drain.drainDurationSeconds), seconds(after.istio.drain.drainDurationSeconds)),
      );
    }
  }
  if (before.linkerd && after.linkerd) {
    settings.push(row('linkerd-proxy sidecar', text(before.linkerd.kind), text(after.linkerd.kind), sidecar === 'none' ? undefined : { symbol: 'mode', value: sidecar, relation: '=' }));
    if (after.linkerd.kind.value === 'classic') {
      if (!derived.some((d) => d.symbol === 'T')) derived.push(output('T', 'proxy-wait-before-exit-seconds', p.sidecarOutlivesSeconds));
      settings.push(row('proxy-wait-before-exit-seconds', seconds(before.linkerd.wait), seconds(after.linkerd.wait), { symbol: 'T', value: p.sidecarOutlivesSeconds.value, relation: '≥' }));
    }
  }
  const meshWords = [mesh.istio ? `Istio (${mesh.istio.evidence})` : '', mesh.linkerd ? `Linkerd (${mesh.linkerd.evidence})` : ''].filter(Boolean).join(' and ');
  const trafficInputs = traffic(inputs, 'from clients whose endpoints are not yet updated');
  return {
    role: 'app',
    summary: `app; serving container${serving.length === 1 ? '' : 's'}: ${serving.join(', ') || 'none'}; ${meshWords ? `mesh: ${meshWords}, ${sidecar} sidecar` : mesh.ambient ? `Istio ambient (${mesh.ambient.evidence}): no sidecar, ztunnel carries the traffic` : 'no mesh sidecar'}`,
    inputs: inputsOf(inputs),
    derived,
    settings,
    timelines: { asWritten: appTimeline(before, trafficInputs), patched: appTimeline(after, trafficInputs) },
  };
}

// ---- job-sidecar-quit ----

function isJobPlan(plan: unknown): plan is JobPlanView {
  const p = plan as Partial<JobPlanView> | null;
  return typeof p === 'object' && p !== null && (p.mode === 'native' || p.mode === 'wrap') && Array.isArray(p.meshes);
}

const PROXY_NAMES = { istio: 'istio-proxy', linkerd: 'linkerd-proxy' } as const;

function jobExplanation(context: Context): Body | undefined {
  const plan = context.outcome.plan;
  if (!isJobPlan(plan)) return undefined;
  const mains = (template: PodTemplate) => (template.spec?.containers ?? []).filter((c) => c.name !== 'istio-proxy' && c.name !== 'linkerd-proxy');
  const state = (template: PodTemplate): JobState => ({
    proxies: plan.meshes.map((mesh) => ({
      mesh,
      name: PROXY_NAMES[mesh],
      kind: mesh === 'istio' ? istioSidecarKind(template, context.spec) : linkerdSidecarKind(template, context.spec),
      ...(mesh === 'istio' ? { quitExit: istioQuitOf(template, context.spec.istioVersion) } : {}),
    })),
    containers: mains(template).map((c) => {
      const urls = quitUrls(c.command);
      const client = httpClientOf(c.image, context.spec.job.imageHasHttpClient, context.spec.job.imageHasShell);
      return { name: c.name, quitUrls: urls, ...(urls.length ? { httpClient: { value: client.client, source: client.evidence } } : {}) };
    }),
  });
  const before = state(context.before);
  const after = state(context.after);
  const settings: SettingRow[] = [];
  for (const [i, proxy] of after.proxies.entries()) {
    const old = before.proxies[i]!;
    settings.push(row(`${proxy.name} sidecar`, text(old.kind), text(proxy.kind), plan.mode === 'native' ? { symbol: 'mode', value: 'native', relation: '=' } : { symbol: 'mode', value: 'classic', relation: '=' }));
  }
  for (const main of mains(context.after)) {
    const command = (c: Container | undefined): SettingValue => {
      const urls = quitUrls(c?.command);
      return urls.length
        ? { value: 'wrapped', display: 'wrapped', source: `asks ${urls.join(' and ')} to quit when the program exits` }
        : { value: 'plain', display: c?.command ? 'plain' : 'image ENTRYPOINT', source: c?.command ? 'command' : 'no command in the manifest' };
    };
    settings.push(row(`${main.name} command`, command(container(context.before, main.name)), command(main), plan.mode === 'wrap' ? { symbol: 'mode', value: 'wrapped', relation: '=' } : undefined));
  }
  const inputs: ModelInput[] = [
    { name: 'mode', value: plan.mode, source: plan.why },
    ...plan.meshes.map((mesh): ModelInput => ({ name: `${mesh === 'istio' ? 'Istio' : 'Linkerd'} sidecar injected`, value: true, source: meshEvidence(plan, mesh) })),
  ];
  return {
    role: 'job',
    summary: `run-to-completion pod with ${plan.meshes.map((m) => PROXY_NAMES[m]).join(' and ')}; ${plan.mode} mode`,
    inputs,
    derived: [],
    settings,
    timelines: { asWritten: jobTimeline(before), patched: jobTimeline(after) },
  };
}

function meshEvidence(plan: JobPlanView, mesh: 'istio' | 'linkerd'): string {
  // Membership is the engine's decision (fn/workloads/mesh.ts); deciding it again here would be a
  // second source of truth, so without the plan's evidence we say only that it was decided.
  return plan.mesh[mesh]?.evidence ?? 'decided by the engine (the evidence is in the reasons of the changes)';
}

/** When istio-proxy exits after the wrapper's quit call: by Istio version and the pod's drain settings (mesh-wide ones are not visible here). */
function istioQuitOf(template: PodTemplate, istioVersion: string): QuitExit {
  const drain = istioDrainSettings({ template, injected: true });
  return istioQuitExit(istioVersion, { exitOnZero: drain.exitOnZero.value, minimumDrainSeconds: drain.minimumDrainSeconds.value, terminationDrainSeconds: drain.terminationDrainSeconds.value });
}

/** The quit URLs a wrapped command calls (fn/mutators/job/wrapper.ts: one `quit MESH URL` line each). */
function quitUrls(command: readonly string[] | undefined): string[] {
  if (!command || !isWrapped(command)) return [];
  return [...(command[2] ?? '').matchAll(/^quit (?:istio|linkerd) (\S+)$/gm)].map((m) => m[1]!);
}

/** The istio-proxy container of a pod injected at render time, whose env pilot-agent reads (fn/workloads/renderInjected.ts). */
function renderedProxy(template: PodTemplate): { container?: Container } {
  const container = renderInjectedIstio(template) ? (template.spec?.containers ?? []).find((c) => c?.name === 'istio-proxy') : undefined;
  return container ? { container } : {};
}
