/**
 * The Cloud SQL Auth Proxies beside an app in its shutdown timeline (explain): a regular container
 * gets SIGTERM at t = 0 with the pod, accepts new connections for v2's `--min-sigterm-delay`, then
 * exits at the first moment with no open connection within `--max-sigterm-delay` (v1:
 * `-term_timeout`); a native sidecar is stopped once the app's containers have exited
 * (fn/workloads/cloudSqlProxy.ts, fn/mutators/app/cloudSqlProxy.ts). Drawn from what the template
 * says; it decides no duration.
 */
import type { Container, PodTemplate } from '../core/kubeObject.ts';
import {
  cloudSqlProxyOf,
  hasMinSigtermDelay,
  MIN_SIGTERM_DELAY_FLAG,
  sigtermBehaviour,
} from '../workloads/cloudSqlProxy.ts';
import type { CloudSqlProxy } from '../workloads/cloudSqlProxy.ts';
import { nativeSidecarsOf } from '../workloads/nativeSidecars.ts';
import type { SidecarKind, Valued } from './podSettings.ts';
import { row, seconds, text } from './rows.ts';
import { secondsText } from './timeline.ts';
import type { Drawing } from './timeline.ts';
import type { SettingRow } from './types.ts';

/** One Cloud SQL Auth Proxy of the pod, as the template runs it. */
export interface CloudSqlProxyState {
  readonly name: string;
  readonly kind: Valued<SidecarKind>;
  /** Seconds it accepts new connections after SIGTERM. */
  readonly acceptsFor: Valued<number>;
  /** Seconds it then waits at most for open connections (exiting at the first with none). */
  readonly waitsFor: Valued<number>;
  /** True when the image reads `--min-sigterm-delay`. */
  readonly hasMinSigtermDelay: boolean;
}

/** Returns the pod's Cloud SQL Auth Proxies: regular containers and native sidecars. */
export function cloudSqlProxiesOf(template: PodTemplate): CloudSqlProxyState[] {
  const regular = (template.spec?.containers ?? []).map((c) => ({ c, native: false }));
  const restartable = nativeSidecarsOf(template).map((c) => ({ c, native: true }));
  return [...regular, ...restartable].flatMap(({ c, native }) => {
    const proxy = cloudSqlProxyOf(c);
    return proxy ? [stateOf(c, native, proxy)] : [];
  });
}

function stateOf(container: Container, native: boolean, proxy: CloudSqlProxy): CloudSqlProxyState {
  const { acceptsFor, waitsFor } = sigtermBehaviour(container, proxy);
  return {
    name: container.name,
    kind: native
      ? { value: 'native', source: 'restartPolicy: Always in initContainers' }
      : { value: 'classic', source: 'a regular container of the pod' },
    acceptsFor: { value: acceptsFor.seconds, source: acceptsFor.source },
    waitsFor: { value: waitsFor.seconds, source: waitsFor.source },
    hasMinSigtermDelay: hasMinSigtermDelay(proxy),
  };
}

/** The proxies' settings rows, as written and as patched; `outlives` is T, what a classic one
 * must accept for. */
export function cloudSqlProxyRows(
  before: readonly CloudSqlProxyState[],
  after: readonly CloudSqlProxyState[],
  outlives: number,
): SettingRow[] {
  return after.flatMap((now) => {
    const was = before.find((p) => p.name === now.name);
    if (!was) return [];
    const rows = [row(`${now.name} sidecar`, text(was.kind), text(now.kind))];
    if (now.kind.value === 'classic' && now.hasMinSigtermDelay)
      rows.push(
        row(
          `${now.name} ${MIN_SIGTERM_DELAY_FLAG}`,
          seconds(was.acceptsFor),
          seconds(now.acceptsFor),
          {
            symbol: 'T',
            value: outlives,
            relation: '≥',
          },
        ),
      );
    return rows;
  });
}

/** What the app's containers need of the proxies, for the windows. */
export interface AppNeeds {
  /** The app containers' names, for the windows' text. */
  readonly apps: string;
  /** When the app is done with its requests (it queries the database until then). */
  readonly servedUntil: number;
  /** When every app container has exited (a native sidecar's SIGTERM). */
  readonly appsExited: number;
}

/** Draws each proxy's events and the windows where the app's queries lose it. */
export function drawCloudSqlProxies(
  drawing: Drawing,
  proxies: readonly CloudSqlProxyState[],
  needs: AppNeeds,
): void {
  for (const proxy of proxies) {
    if (proxy.kind.value === 'native') {
      drawing.event(
        needs.appsExited,
        proxy.name,
        'SIGTERM once every app container has exited (native sidecar); stops proxying',
      );
      continue;
    }
    const A = proxy.acceptsFor.value;
    const wait = proxy.waitsFor.value;
    drawing.event(
      0,
      proxy.name,
      A > 0
        ? `SIGTERM (regular container): keeps accepting new database connections for ` +
            `${secondsText(A)} (${proxy.acceptsFor.source})`
        : `SIGTERM (regular container), with no delay (${proxy.acceptsFor.source})`,
    );
    const gone = A + wait;
    drawing.event(
      A,
      proxy.name,
      wait > 0
        ? `exits at the first moment with no open connection, by t=${gone} at the latest ` +
            `(${proxy.waitsFor.source})`
        : `exits, closing its connections (${proxy.waitsFor.source})`,
    );
    const until = needs.servedUntil;
    if (A < until && wait > 0)
      drawing.window({
        from: A,
        to: Math.min(gone, until),
        outcome: 'risk',
        kind: 'early-exit',
        text:
          `${proxy.name} may exit at any moment with no open database connection while ` +
          `${needs.apps} still serves until t=${until} → its next queries fail`,
      });
    if (gone < until)
      drawing.window({
        from: gone,
        to: until,
        outcome: 'fail',
        kind: 'proxy-gone',
        text:
          `${proxy.name} is gone at t=${gone} while ${needs.apps} still serves until ` +
          `t=${until} → its database queries fail`,
      });
  }
}
