/**
 * Behind node targets with externalTrafficPolicy Local, a node forwards the load balancer's
 * connections to a terminating Traefik only while it passes readiness (kubernetes
 * pkg/proxy/topology.go CategorizeEndpoints), and the chart's readiness probe is `/ping`, which
 * answers `ping.terminatingStatusCode` (503 unless set) from SIGTERM on
 * (./facts.ts PING_TERMINATING_STATUS). So Traefik would be unready, and the
 * node would drop what the load balancer still sends, while requestAcceptGraceTimeout keeps its
 * listeners open for W. `--ping.terminatingStatusCode=200` keeps /ping passing until Traefik stops
 * (issue #27 item 3: one step of the traefik-drain decision, ./decide.ts).
 */
import type { Container } from '../../core/kubeObject.ts';
import type { NodeForwarding } from '../../timing/loadBalancers.ts';
import { lastFlag, parseFlags } from './staticConfig/flags.ts';
import { PING_TERMINATING_STATUS } from './facts.ts';
import type { ArgEdit } from './args.ts';
import type { TraefikFinding } from './outcome.ts';

/** Returns true when the container's readiness probe asks Traefik's `/ping` over HTTP. */
export function readinessOnPing(container: Container | undefined): boolean {
  return container?.readinessProbe?.httpGet?.path === '/ping';
}

/** The code `/ping` answers from SIGTERM on, as the container's flags set it. */
export function pingTerminatingCode(container: Container | undefined): {
  readonly code: number;
  readonly source: string;
} {
  const flag = lastFlag(
    parseFlags(container?.args ?? []),
    PING_TERMINATING_STATUS.flag.toLowerCase(),
  );
  const code = Number(flag?.value);
  return flag !== undefined && Number.isInteger(code)
    ? { code, source: `flag --${PING_TERMINATING_STATUS.flag}` }
    : {
        code: PING_TERMINATING_STATUS.defaultCode,
        source: `Traefik default (--${PING_TERMINATING_STATUS.flag} not set)`,
      };
}

/** True for a code an HTTP readiness probe takes as success (200–399). */
export function passesProbe(code: number): boolean {
  return code >= 200 && code < 400;
}

/** Returns the edit that keeps /ping passing while Traefik drains, or why none is made. */
export function pingEdit(
  container: Container,
  source: 'flags' | 'env',
  nodeForwarding: NodeForwarding | undefined,
): { edits: ArgEdit[]; findings: TraefikFinding[] } {
  if (nodeForwarding !== 'while-ready' || !readinessOnPing(container))
    return { edits: [], findings: [] };
  const current = pingTerminatingCode(container);
  if (passesProbe(current.code)) return { edits: [], findings: [] };
  const name = PING_TERMINATING_STATUS.flag;
  const value = String(PING_TERMINATING_STATUS.servingCode);
  if (source === 'env')
    return {
      edits: [],
      findings: [
        {
          severity: 'warning',
          code: 'TRAEFIK_PING_TERMINATING',
          message:
            `Container "${container.name}" is configured by TRAEFIK_* variables; kube-graceful ` +
            `writes no ping setting there. Behind node targets with externalTrafficPolicy Local ` +
            `its /ping readiness fails from SIGTERM (${current.code}) and the node drops what ` +
            `the load balancer still sends: set TRAEFIK_PING_TERMINATINGSTATUSCODE=${value}.`,
        },
      ],
    };
  const flag = lastFlag(parseFlags(container.args ?? []), name.toLowerCase());
  const reason =
    `--${name} = ${value}: behind node targets with externalTrafficPolicy Local a node ` +
    `forwards to a terminating pod only while it passes readiness (kubernetes ` +
    `pkg/proxy/topology.go), and the readiness probe asks /ping, which answers ${current.code} ` +
    `(${current.source}) from SIGTERM on (pkg/ping/ping.go@v3.7.9). ${value} keeps it ready ` +
    `while requestAcceptGraceTimeout keeps Traefik accepting.`;
  return {
    edits: [
      flag?.valueIndex !== undefined
        ? { replace: flag, name: flag.name, value, reason }
        : { after: Number.MAX_SAFE_INTEGER, name, value, reason },
    ],
    findings: [],
  };
}
