/**
 * What `explain` says about a job-sidecar-quit plan: the mode and why, each proxy's kind, and
 * whether each main container asks the proxies to quit, with the completion timelines
 * (./timeline.ts).
 */
import type { Container, PodTemplate } from '../../core/kubeObject.ts';
import {
  istioDrainSettings,
  istioSidecarKind,
  linkerdSidecarKind,
} from '../../explanation/podSettings.ts';
import type { SidecarKind, Valued } from '../../explanation/podSettings.ts';
import { container, row, text } from '../../explanation/rows.ts';
import type {
  ExplainContext,
  ExplanationBody,
  ModelInput,
  SettingRow,
  SettingValue,
} from '../../explanation/types.ts';
import { MESH_PROXY, MESH_PROXY_CONTAINERS } from '../../workloads/meshProxies.ts';
import type { Mesh } from '../../workloads/meshProxies.ts';
import { httpClientOf } from './images.ts';
import { istioQuitExit } from './istioQuit.ts';
import type { QuitExit } from './istioQuit.ts';
import type { JobPlan } from './plan.ts';
import { jobTimeline } from './timeline.ts';
import type { JobState } from './timeline.ts';
import { unwrapCommand, wrappedQuitUrls } from './wrapper.ts';
import { quitUrlOf } from './sidecarQuit.ts';
import { CLOUD_SQL_PROXY_V2 } from '../../workloads/declaredSidecars.ts';
import { VAULT_AGENT, VAULT_INJECT, VAULT_PRE_POPULATE_ONLY, vaultAgentOf } from './vault.ts';
import { DAPR_ENABLED, DAPR_NATIVE, DAPRD, daprQuit, daprSidecarOf } from './dapr.ts';
import {
  CONSUL_DATAPLANE,
  CONSUL_INJECT,
  CONSUL_NATIVE,
  consulShutdownGrace,
  consulSidecarOf,
} from './consul.ts';

/** Returns the explanation of one Job's plan. */
export function explainJob(plan: JobPlan, context: ExplainContext): ExplanationBody {
  const declared = new Set(plan.sidecars.map((s) => s.name));
  const mains = (template: PodTemplate) =>
    (template.spec?.containers ?? []).filter(
      (c) => !MESH_PROXY_CONTAINERS.has(c.name) && !declared.has(c.name),
    );
  const state = (template: PodTemplate): JobState => ({
    proxies: proxiesOf(plan, context, template, mains(template)),
    containers: mains(template).map((c) => {
      const urls = wrappedQuitUrls(c.command);
      const client = httpClientOf(
        c.image,
        context.spec.job.imageHasHttpClient,
        context.spec.job.imageHasShell,
      );
      return {
        name: c.name,
        quitUrls: urls,
        ...(urls.length ? { httpClient: { value: client.client, source: client.evidence } } : {}),
      };
    }),
  });
  const before = state(context.before);
  const after = state(context.after);
  const sidecarNames = [
    ...plan.meshes.map((m) => MESH_PROXY[m]),
    ...declared,
    ...(plan.vault ? [VAULT_AGENT] : []),
    ...(plan.dapr ? [DAPRD] : []),
    ...(plan.consul ? [CONSUL_DATAPLANE] : []),
  ];
  return {
    role: 'job',
    summary: `run-to-completion pod with ${sidecarNames.join(' and ')}; ${plan.mode} mode`,
    inputs: modelInputs(plan),
    derived: [],
    settings: settingRows(plan, context, { before, after, mains: mains(context.after) }),
    timelines: { asWritten: jobTimeline(before), patched: jobTimeline(after) },
  };
}

/** The pod's proxies and sidecars as the timeline reads them, in one pod template. */
function proxiesOf(
  plan: JobPlan,
  context: ExplainContext,
  template: PodTemplate,
  mains: readonly Container[],
): JobState['proxies'] {
  return [
    ...plan.meshes.map((mesh) => ({
      mesh,
      name: MESH_PROXY[mesh],
      kind:
        mesh === 'istio'
          ? istioSidecarKind(template, context.spec)
          : linkerdSidecarKind(template, context.spec),
      ...(mesh === 'istio' ? { quitExit: istioQuitOf(template, context.spec.istioVersion) } : {}),
    })),
    ...plan.sidecars.map((s) => {
      const url = quitUrlOf(
        template.spec?.containers?.find((c) => c.name === s.name),
        s.product,
      );
      const self = selfQuitOf(mains, s.product);
      return {
        name: s.name,
        kind: declaredKind(template, s.name),
        ...(url ? { quitUrl: url } : {}),
        ...(self ? { selfQuit: self } : {}),
      };
    }),
    ...(plan.vault ? [vaultAgent(template)] : []),
    ...(plan.dapr ? [daprd(template, mains)] : []),
    ...(plan.consul ? [consulDataplane(template, mains)] : []),
  ];
}

/** Each sidecar's kind as written and as patched, then each main container's command. */
function settingRows(
  plan: JobPlan,
  context: ExplainContext,
  states: { readonly before: JobState; readonly after: JobState; readonly mains: Container[] },
): SettingRow[] {
  const settings: SettingRow[] = [];
  for (const [i, proxy] of states.after.proxies.entries()) {
    const old = states.before.proxies[i]!;
    settings.push(
      row(`${proxy.name} sidecar`, text(shown(old)), text(shown(proxy)), {
        symbol: 'mode',
        value: plannedKind(plan, proxy),
        relation: '=',
      }),
    );
  }
  for (const main of states.mains) {
    settings.push(
      row(
        `${main.name} command`,
        commandValue(container(context.before, main.name)),
        commandValue(main),
        plan.mode === 'wrap' ? { symbol: 'mode', value: 'wrapped', relation: '=' } : undefined,
      ),
    );
  }
  return settings;
}

/** A main container's command: wrapped (it asks the proxies to quit), or plain. */
function commandValue(c: Container | undefined): SettingValue {
  const urls = wrappedQuitUrls(c?.command);
  return urls.length
    ? {
        value: 'wrapped',
        display: 'wrapped',
        source: `asks ${urls.join(' and ')} to quit when the program exits`,
      }
    : {
        value: 'plain',
        display: c?.command ? 'plain' : 'image ENTRYPOINT',
        source: c?.command ? 'command' : 'no command in the manifest',
      };
}

/** The model's inputs: the mode, and each sidecar and why it is one. */
function modelInputs(plan: JobPlan): ModelInput[] {
  const injected = (present: unknown, name: string, source: string): ModelInput[] =>
    present ? [{ name, value: true, source }] : [];
  return [
    { name: 'mode', value: plan.mode, source: plan.why },
    ...plan.meshes.map((mesh): ModelInput => ({
      name: `${mesh === 'istio' ? 'Istio' : 'Linkerd'} sidecar injected`,
      value: true,
      source: meshEvidence(plan, mesh),
    })),
    ...plan.sidecars.map((s): ModelInput => ({
      name: `${s.name} is a sidecar`,
      value: true,
      source: s.evidence,
    })),
    ...injected(
      plan.vault,
      'Vault agent injected',
      `${VAULT_INJECT} on the pod template (hashicorp/vault-k8s)`,
    ),
    ...injected(
      plan.dapr,
      'Dapr sidecar injected',
      `${DAPR_ENABLED} on the pod template (dapr/dapr sidecar injector)`,
    ),
    ...injected(
      plan.consul,
      'Consul dataplane injected',
      `${CONSUL_INJECT} on the pod template (hashicorp/consul-k8s connect injector)`,
    ),
  ];
}

/**
 * Whether a sidecar the chart declares runs as a native one (KEP-753: an init container with
 * `restartPolicy: Always`) or as a regular container.
 */
function declaredKind(template: PodTemplate, name: string): Valued<SidecarKind> {
  const init = template.spec?.initContainers?.find((c) => c.name === name) as
    { restartPolicy?: unknown } | undefined;
  return init?.restartPolicy === 'Always'
    ? { value: 'native', source: 'restartPolicy: Always in initContainers' }
    : { value: 'classic', source: 'a regular container of the pod' };
}

/**
 * Which main container's own command (not our wrapper) calls the Cloud SQL Auth Proxy's quit path,
 * as its Job example does (examples/k8s-sidecar/job_with_shutdown_hook.yaml@v2.25.3).
 */
function selfQuitOf(mains: readonly Container[], product?: string): string | undefined {
  if (product !== CLOUD_SQL_PROXY_V2) return undefined;
  const calls = callingOwn(mains, '/quitquitquit');
  return calls && `the command of ${calls.name} calls /quitquitquit`;
}

/** The main container whose own command (inside our wrapper, if wrapped) names `path`. */
function callingOwn(mains: readonly Container[], path: string): Container | undefined {
  return mains.find((c) => {
    const command = unwrapCommand(c.command ?? []) ?? c.command ?? [];
    return [...command, ...(c.args ?? [])].some((w) => String(w).includes(path));
  });
}

/** How a sidecar runs, for its settings row: native, classic, or not in the running pod. */
function shown(proxy: JobState['proxies'][number]): Valued<string> {
  return proxy.initOnly === undefined ? proxy.kind : { value: 'init only', source: proxy.initOnly };
}

/**
 * What the plan wants of a sidecar: a mesh proxy as the mode says, a sidecar the chart declares
 * native (nothing else ends it), the Vault agent out of the running pod.
 */
function plannedKind(plan: JobPlan, proxy: JobState['proxies'][number]): string {
  if (proxy.mesh) return plan.mode === 'native' ? 'native' : 'classic';
  if (proxy.name === VAULT_AGENT && plan.vault) return 'init only';
  // daprd is native only where the pod asks for it (./dapr.ts); otherwise the wrapper ends it.
  if (proxy.name === DAPRD && plan.dapr) return proxy.kind.value;
  if (proxy.name === CONSUL_DATAPLANE && plan.consul) return proxy.kind.value;
  // In wrap mode a sidecar with a quit endpoint stays classic: the wrapper ends it.
  return plan.mode === 'wrap' && proxy.quitUrl ? 'classic' : 'native';
}

/** The Vault agent as the injector will add it to this template (./vault.ts). */
function vaultAgent(template: PodTemplate): JobState['proxies'][number] {
  const { initOnly } = vaultAgentOf(template);
  return {
    name: VAULT_AGENT,
    kind: { value: 'classic', source: `added by the Vault Agent Injector (${VAULT_INJECT})` },
    ...(initOnly
      ? {
          initOnly:
            `${VAULT_PRE_POPULATE_ONLY}: "true", the secrets were rendered by the injector's ` +
            `init container before the program started`,
        }
      : {}),
  };
}

/** What tells one injected sidecar apart, for injectedProxy. */
interface InjectedSidecar {
  readonly name: string;
  readonly kind: Valued<SidecarKind>;
  /** The endpoint the wrapper calls; its path is what a program's own call is found by. */
  readonly quitUrl?: string;
  readonly quitExit?: QuitExit;
  /** Whose endpoint, as a possessive: "Dapr's". */
  readonly whose: string;
  /** What the wrapper calls, for the tell: "daprd's shutdown API". */
  readonly wrapperCalls: string;
}

/**
 * An injected sidecar as its injector will add it to this template, and where the program's own
 * command calls its quit path, as Dapr's Job example and consul-k8s's Job test do.
 */
function injectedProxy(
  sidecar: InjectedSidecar,
  mains: readonly Container[],
): JobState['proxies'][number] {
  const { whose, wrapperCalls, ...proxy } = sidecar;
  const path = sidecar.quitUrl === undefined ? undefined : new URL(sidecar.quitUrl).pathname;
  const calls = path === undefined ? undefined : callingOwn(mains, path);
  return {
    ...proxy,
    ...(calls
      ? {
          selfQuit: `the command of ${calls.name} calls ${whose} ${path}`,
          selfQuitTell: `job.mode: wrap (the wrapper calls ${wrapperCalls})`,
        }
      : {}),
  };
}

/** daprd as Dapr's injector will add it (./dapr.ts). */
function daprd(template: PodTemplate, mains: readonly Container[]): JobState['proxies'][number] {
  const { native } = daprSidecarOf(template);
  return injectedProxy(
    {
      name: DAPRD,
      kind: native
        ? { value: 'native', source: `${DAPR_NATIVE} on the pod template (Dapr 1.18+)` }
        : { value: 'classic', source: `added by the Dapr sidecar injector (${DAPR_ENABLED})` },
      quitUrl: daprQuit().endpoint.url,
      whose: "Dapr's",
      wrapperCalls: "daprd's shutdown API",
    },
    mains,
  );
}

/** consul-dataplane as Consul's injector will add it (./consul.ts), with its shutdown grace. */
function consulDataplane(
  template: PodTemplate,
  mains: readonly Container[],
): JobState['proxies'][number] {
  const { native, quit } = consulSidecarOf(template);
  const grace = consulShutdownGrace(template);
  return injectedProxy(
    {
      name: CONSUL_DATAPLANE,
      kind: native
        ? { value: 'native', source: `${CONSUL_NATIVE} on the pod template (consul-k8s v1.9.0+)` }
        : { value: 'classic', source: `added by the Consul connect injector (${CONSUL_INJECT})` },
      ...(quit && !('problem' in quit) ? { quitUrl: quit.endpoint.url } : {}),
      quitExit: {
        seconds: grace.seconds,
        atLeast: false,
        text:
          `waits its shutdown grace period (${grace.seconds} s, ${grace.source}), ` +
          'then quits Envoy',
      },
      whose: "consul-dataplane's",
      wrapperCalls: 'its graceful-shutdown endpoint',
    },
    mains,
  );
}

function meshEvidence(plan: JobPlan, mesh: Mesh): string {
  // Membership is the engine's decision (fn/workloads/mesh.ts); deciding it again here would be a
  // second source of truth, so without the plan's evidence we say only that it was decided.
  return (
    plan.mesh[mesh]?.evidence ??
    'decided by the engine (the evidence is in the reasons of the changes)'
  );
}

/**
 * When istio-proxy exits after the wrapper's quit call: by Istio version and the pod's drain
 * settings (mesh-wide ones are not visible here).
 */
function istioQuitOf(template: PodTemplate, istioVersion: string): QuitExit {
  const drain = istioDrainSettings({ template, injected: true });
  return istioQuitExit(istioVersion, {
    exitOnZero: drain.exitOnZero.value,
    minimumDrainSeconds: drain.minimumDrainSeconds.value,
    terminationDrainSeconds: drain.terminationDrainSeconds.value,
  });
}
