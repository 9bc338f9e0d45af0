/**
 * The timeline of a run-to-completion pod (explain, issue #7): it starts when the main program
 * exits, and asks whether the pod completes.
 */
import type { SidecarKind, Valued } from '../../explanation/podSettings.ts';
import { Drawing } from '../../explanation/timeline.ts';
import type { Timeline } from '../../explanation/timeline.ts';
import type { HttpClient } from './images.ts';
import type { QuitExit } from './istioQuit.ts';

/**
 * What a Job's completion depends on: its proxies and whether the main containers ask them to quit.
 */
export interface JobState {
  readonly proxies: ReadonlyArray<{
    /** The mesh of a proxy; absent for a sidecar the chart declares (no quit call is made). */
    readonly mesh?: 'istio' | 'linkerd';
    readonly name: string;
    readonly kind: Valued<SidecarKind>;
    /**
     * When a classic proxy is gone after the quit call (Istio: by version,
     * fn/mutators/job/istioQuit.ts); at once when absent.
     */
    readonly quitExit?: QuitExit;
    /** Why the sidecar is not in the running pod at all (the Vault agent, init only). */
    readonly initOnly?: string;
    /** The URL that ends a sidecar the chart declares, where it has one (./sidecarQuit.ts). */
    readonly quitUrl?: string;
    /**
     * Where the program's own command calls the sidecar's quit path (`curl …/quitquitquit`):
     * whether and when that ends it is not modelled.
     */
    readonly selfQuit?: string;
    /** How to make `selfQuit` certain, where it differs from the declared sidecars' way. */
    readonly selfQuitTell?: string;
  }>;
  readonly containers: ReadonlyArray<{
    readonly name: string;
    readonly quitUrls: readonly string[];
    /**
     * Whether the image has curl or wget for the wrapper's call (fn/mutators/job/images.ts); needed
     * only when wrapped.
     */
    readonly httpClient?: Valued<HttpClient>;
  }>;
}

type ProxyState = JobState['proxies'][number];
type ContainerState = JobState['containers'][number];

/** What the proxies do once the program has exited, gathered for the pod's verdict. */
interface Outcome {
  /** Proxies nothing stops. */
  readonly stuck: string[];
  /** Sidecars the program's own command may end: how and when is not modelled. */
  readonly selfEnded: Array<{ name: string; why: string; tell?: string }>;
  /** When the last asked proxy has exited. */
  completes: number;
}

/**
 * Returns what happens when a Job's main program exits: a classic sidecar keeps the pod running
 * for ever unless someone asks it to quit (kubernetes/kubernetes#25908); a preStop never runs for
 * a container that exits by itself (docs/background.md#kubernetes-pod-termination); a native
 * sidecar is stopped by Kubernetes.
 */
export function jobTimeline(state: JobState): Timeline {
  const drawing = new Drawing();
  const unsure = drawPrograms(drawing, state.containers);
  const outcome: Outcome = { stuck: [], selfEnded: [], completes: 0 };
  for (const proxy of state.proxies) drawProxy(drawing, state.containers, proxy, outcome);
  const { stuck, selfEnded, completes } = outcome;
  if (!stuck.length && selfEnded.length) {
    const names = selfEnded.map((e) => e.name).join(' and ');
    const unknown = {
      what: `whether the program's own quit call ends ${names}`,
      tell:
        selfEnded.find((e) => e.tell)?.tell ??
        'the oldest kubelet (kubernetesVersion ≥ 1.29 makes it a native sidecar), or ' +
          'job.mode: wrap (the wrapper calls its quit endpoint)',
    };
    drawing.event(null, 'pod', `completes once ${names} has exited`, unknown);
    drawing.window({
      from: 0,
      to: null,
      outcome: 'risk',
      kind: 'self-quit',
      text:
        `${selfEnded.map((e) => e.why).join('; ')}: whether that call reaches ${names} ` +
        `(a command that fails first never makes it) is not modelled`,
      unknown,
    });
  } else if (stuck.length) {
    drawing.event(null, 'pod', 'never completes: the Job stays active');
    drawing.window({
      from: 0,
      to: null,
      outcome: 'fail',
      kind: 'never-completes',
      text:
        `${stuck.join(' and ')} keep${stuck.length === 1 ? 's' : ''} the pod running after the ` +
        `program exits → the Job never completes (kubernetes/kubernetes#25908)`,
    });
  } else drawCompletes(drawing, completes, unsure);
  return drawing.done('program-exit', 'the Job completes');
}

/**
 * Each main program's exit, and the wrapper's quit call where it is wrapped; returns the wrapped
 * containers whose image may lack the HTTP client the call needs.
 */
function drawPrograms(drawing: Drawing, containers: readonly ContainerState[]): string[] {
  const unsure: string[] = [];
  for (const container of containers) {
    const client = container.httpClient;
    const needs =
      client === undefined
        ? ''
        : client.value === 'unknown'
          ? ` (needs curl or wget: ${client.source})`
          : ` (with ${client.value === 'none' ? 'neither curl nor wget' : client.value}: ` +
            `${client.source})`;
    drawing.event(
      0,
      container.name,
      container.quitUrls.length
        ? `program exits; the wrapper POSTs ${container.quitUrls.join(' and ')}${needs}, ` +
            `then exits with the program's exit code`
        : 'program exits; the container stops',
    );
    if (container.quitUrls.length && client?.value === 'unknown') unsure.push(container.name);
  }
  return unsure;
}

/** One proxy after the program exits: gone with the pod, stopped, asked to quit, or stuck. */
function drawProxy(
  drawing: Drawing,
  containers: readonly ContainerState[],
  proxy: ProxyState,
  outcome: Outcome,
): void {
  const quitPath = proxy.mesh === 'istio' ? '/quitquitquit' : '/shutdown';
  const calling = proxy.mesh
    ? containers.filter((c) => c.quitUrls.some((u) => u.endsWith(quitPath)))
    : containers.filter((c) => proxy.quitUrl && c.quitUrls.includes(proxy.quitUrl));
  // A wrapper whose image has neither client prints so and asks nothing (wrapper.ts
  // NO_CLIENT_HINT).
  const asked =
    containers.length > 0 &&
    calling.length === containers.length &&
    calling.every((c) => c.httpClient?.value !== 'none');
  if (proxy.initOnly !== undefined) {
    drawing.event(0, proxy.name, `none in the running pod: ${proxy.initOnly}`);
  } else if (proxy.kind.value === 'native') {
    drawing.event(
      0,
      proxy.name,
      `SIGTERM from Kubernetes once every main container has exited (native sidecar, ` +
        `${proxy.kind.source}); exits`,
    );
  } else if (asked) {
    const exit = proxy.quitExit;
    const at = exit?.seconds ?? 0;
    drawing.event(
      0,
      proxy.name,
      `quit request received (classic sidecar, ${proxy.kind.source}): ${exit?.text ?? 'exits'}`,
    );
    if (at > 0)
      drawing.event(
        at,
        proxy.name,
        exit?.atLeast ? 'exits at the first second with no active connection' : 'exits',
      );
    outcome.completes = Math.max(outcome.completes, at);
  } else if (proxy.selfQuit !== undefined) {
    drawing.event(null, proxy.name, `may be ended by the program (${proxy.selfQuit})`);
    outcome.selfEnded.push({
      name: proxy.name,
      why: proxy.selfQuit,
      ...(proxy.selfQuitTell ? { tell: proxy.selfQuitTell } : {}),
    });
  } else {
    drawing.event(
      null,
      proxy.name,
      `keeps running: a classic sidecar (${proxy.kind.source}) is stopped by nothing, ` +
        `and preStop never runs when a container exits by itself`,
    );
    outcome.stuck.push(proxy.name);
  }
}

/** The pod completes: when, and the risk that a wrapper's image lacks its HTTP client. */
function drawCompletes(drawing: Drawing, completes: number, unsure: readonly string[]): void {
  drawing.event(completes, 'pod', "completes: the Job counts the program's exit code");
  if (unsure.length) {
    drawing.window({
      from: 0,
      to: null,
      outcome: 'risk',
      kind: 'needs-http-client',
      text:
        `the wrapper in ${unsure.join(', ')} needs curl or wget in the image, ` +
        `which is not known: with neither, ` +
        `the proxy is never asked and the Job never completes`,
    });
  }
  drawing.window({
    from: completes,
    to: completes,
    outcome: 'ok',
    kind: 'completes',
    text:
      completes === 0
        ? 'the pod completes as soon as the program exits'
        : `the pod completes ${completes} s after the program exits, once the proxy has drained`,
  });
}
