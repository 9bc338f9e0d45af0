/**
 * The shutdown timeline of a Kong pod (explain), as `kong quit` runs it (./kongQuit.ts, read
 * at Kong 3.9.3): nginx keeps serving for `--wait`, then SIGQUIT closes its listeners and the
 * workers finish the requests in flight; after `--timeout` kong quit stops nginx (SIGTERM, fast
 * shutdown). Drawn with the kit of fn/explanation/timeline.ts from the values the pod runs with; it
 * decides no duration.
 */
import type { Unknown } from '../../core/unknown.ts';
import type { Valued } from '../../explanation/podSettings.ts';
import {
  deadline,
  deregistration,
  Drawing,
  nodeDropWindow,
  openConnectionsServed,
  refusedUntilDrained,
  secondsText,
  start,
} from '../../explanation/timeline.ts';
import type { Timeline, Traffic } from '../../explanation/timeline.ts';

/** What a Kong pod's shutdown depends on. */
export interface KongState {
  readonly container: string;
  readonly grace: Valued<number>;
  /** The proxy's preStop runs `kong quit`; false when it has none. */
  readonly quits: boolean;
  /** P: `--wait`. */
  readonly wait: Valued<number>;
  /** T: `--timeout`. */
  readonly timeout: Valued<number>;
  /** The pod's other containers, not behind the load balancer. */
  readonly others: readonly string[];
  /** What is not modelled about the pod's mesh sidecar, when it has one. */
  readonly meshUnknown?: Unknown;
}

/** Returns the timeline of one state (as written, or patched) of a Kong pod. */
export function kongTimeline(state: KongState, traffic: Traffic): Timeline {
  const drawing = new Drawing();
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  const name = state.container;
  start(drawing, state.grace, traffic);
  for (const other of state.others)
    drawing.event(0, other, 'SIGTERM: not behind the load balancer, nothing to drain');
  if (state.meshUnknown)
    drawing.event(
      0,
      'mesh proxy',
      'starts its own shutdown (not modelled with kong quit)',
      state.meshUnknown,
    );
  if (!state.quits) return withoutQuit(drawing, state, traffic);
  const P = state.wait.value;
  const T = state.timeout.value;
  drawing.event(
    0,
    name,
    `preStop kong quit: nginx keeps accepting for --wait (${secondsText(P)}, ` +
      `${state.wait.source})`,
  );
  const hookCut = P >= G;
  const stop = Math.min(P, G);
  drawing.event(
    stop,
    name,
    hookCut
      ? 'SIGTERM (preStop cut at the grace deadline): nginx fast shutdown, closing its ' +
          'listeners and its connections'
      : `kong quit sends SIGQUIT: nginx closes its listeners; its workers finish the requests ` +
          `in flight (--timeout ${secondsText(T)}, ${state.timeout.source})`,
  );
  // Behind node targets with Local (kongTraffic in ./explain.ts): before Kubernetes 1.26 the node
  // forwards nothing to a terminating pod; from it, while Kong passes /status/ready, which holds
  // until its listeners close.
  const forwarded = traffic.nodeForwarding === 'never' ? 0 : stop;
  if (forwarded < Math.min(stop, W))
    nodeDropWindow(drawing, traffic, forwarded, { who: name, why: '' });
  else
    refusedUntilDrained(
      drawing,
      traffic,
      stop,
      `nginx closed its listeners at t=${stop} ` +
        `(${hookCut ? 'the grace deadline' : `--wait ${secondsText(P)}`})`,
    );
  const needed = stop + R;
  const cutAt = hookCut ? G : Math.min(stop + T, G);
  if (cutAt < needed)
    drawing.window({
      from: cutAt,
      to: needed,
      outcome: 'fail',
      kind: 'cut',
      text:
        `requests in flight are cut at t=${cutAt} (` +
        (cutAt === G
          ? 'the grace deadline: SIGTERM, nginx fast shutdown'
          : `kong quit's --timeout ${secondsText(T)} over: it stops nginx with SIGTERM`) +
        `); the last one accepted at t=${stop} needs until t=${needed} (R = ${secondsText(R)})`,
    });
  const done = Math.min(needed, cutAt);
  if (done < G)
    drawing.event(done, name, 'nginx has exited: kong quit returns; the container stops');
  deadline(drawing, G, state.grace, done >= G ? name : undefined);
  servingWindows(drawing, { stop, W, R, forwarded, done });
  deregistration(drawing, traffic, done, done);
  return drawing.done('deletion', 'no request fails');
}

/** A Kong container without a preStop kong quit: what it does on SIGTERM is not modelled. */
function withoutQuit(drawing: Drawing, state: KongState, traffic: Traffic): Timeline {
  const name = state.container;
  const W = traffic.drainWindowSeconds;
  const R = traffic.maxRequestSeconds;
  const G = state.grace.value;
  drawing.event(0, name, 'SIGTERM (no preStop): what Kong does without kong quit is not modelled', {
    what: `what ${name} does on SIGTERM without a preStop kong quit (not modelled)`,
    tell:
      `a preStop kong quit --wait=${W} --timeout=${R}, which kube-graceful writes with ` +
      `kong-mode on`,
  });
  deadline(drawing, G, state.grace, undefined);
  return drawing.done('deletion', 'no request fails');
}

/** The spans that go well: accepting, served without new connections, finishing. */
function servingWindows(
  drawing: Drawing,
  { stop, W, R, forwarded, done }: Record<'stop' | 'W' | 'R' | 'forwarded' | 'done', number>,
): void {
  drawing.window({
    from: 0,
    to: Math.min(stop, W, forwarded),
    outcome: 'ok',
    kind: 'serving',
    text: 'new connections accepted (kong quit --wait)',
  });
  openConnectionsServed(drawing, W, stop);
  drawing.window({
    from: stop,
    to: done,
    outcome: 'ok',
    kind: 'finishing',
    text: `requests in flight finish (R = ${secondsText(R)})`,
  });
}
