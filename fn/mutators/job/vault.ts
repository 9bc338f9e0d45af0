/**
 * The Vault Agent Injector's sidecar in a Job (issue #30 item 2). The injector
 * (hashicorp/vault-k8s) adds, at admission, an init container that renders the secrets and a
 * `vault-agent` sidecar that keeps them fresh; the sidecar runs until it is signalled, so a Job's
 * pod never completes
 * (hashicorp/vault-k8s#620). Its own switch for that case is
 * `vault.hashicorp.com/agent-pre-populate-only: "true"`: "If true, no sidecar container will be
 * injected at runtime of the application" (agent-inject/agent/annotations.go@v1.7.6; read since
 * v0.1.0). The secrets are then rendered once, before the main containers start, and not renewed.
 * Through v1.7.6 the injector has no native-sidecar option (agent-inject/agent/agent.go@v1.7.6).
 */
import { annotationsOf } from '../../core/kubeObject.ts';
import type { PodTemplate } from '../../core/kubeObject.ts';
import { parseGoBool } from '../../core/goBool.ts';
import type { Workload } from '../../workloads/workload.ts';
import type { ProposedChange, ProposedFinding } from '../types.ts';
import { STUCK_JOB } from './reasons.ts';

export const VAULT_INJECT = 'vault.hashicorp.com/agent-inject';
export const VAULT_PRE_POPULATE_ONLY = 'vault.hashicorp.com/agent-pre-populate-only';
const VAULT_PRE_POPULATE = 'vault.hashicorp.com/agent-pre-populate';

/** The container the injector adds (agent-inject/agent/container_sidecar.go@v1.7.6). */
export const VAULT_AGENT = 'vault-agent';

/** What the pod template says of the Vault agent: injected or not, and as a sidecar or not. */
export interface VaultAgent {
  /** The pod asks for injection. */
  readonly injected: boolean;
  /** The injector adds no sidecar (pre-populate-only). */
  readonly initOnly: boolean;
}

/** Returns what the pod template asks of the Vault Agent Injector. */
export function vaultAgentOf(template: PodTemplate): VaultAgent {
  const annotations = annotationsOf(template.metadata);
  return {
    injected: parseGoBool(annotations[VAULT_INJECT]) === true,
    initOnly: parseGoBool(annotations[VAULT_PRE_POPULATE_ONLY]) === true,
  };
}

/** Returns the annotation that keeps the agent out of the running pod, or why it is not set. */
export function vaultPlan(workload: Workload): {
  changes: ProposedChange[];
  findings: ProposedFinding[];
} {
  const annotations = annotationsOf(workload.template.metadata);
  const agent = vaultAgentOf(workload.template);
  if (!agent.injected || agent.initOnly) return { changes: [], findings: [] };
  const only = parseGoBool(annotations[VAULT_PRE_POPULATE_ONLY]);
  const path = workload.at('metadata', 'annotations', VAULT_PRE_POPULATE_ONLY);
  if (only === false || parseGoBool(annotations[VAULT_PRE_POPULATE]) === false) {
    // The chart chose a running agent (or no init container, where pre-populate-only would leave
    // no agent at all): its choice, said.
    const key = only === false ? VAULT_PRE_POPULATE_ONLY : VAULT_PRE_POPULATE;
    return {
      changes: [],
      findings: [
        {
          severity: 'warning',
          code: 'JOB_VAULT_AGENT_KEPT',
          message:
            `the pod template sets ${key}: "${annotations[key]}", so the Vault Agent Injector ` +
            `adds its ${VAULT_AGENT} sidecar, which runs until it is signalled: the Job never ` +
            `completes. Left as written; ${VAULT_PRE_POPULATE_ONLY}: "true" renders the ` +
            `secrets once in an init container and adds no sidecar`,
          path,
        },
      ],
    };
  }
  return {
    changes: [
      {
        path,
        value: 'true',
        reason: [
          `The Vault Agent Injector adds no ${VAULT_AGENT} sidecar: it renders the secrets once ` +
            `in its init container, before the main containers start, and does not renew them ` +
            `("If true, no sidecar container will be injected at runtime", ` +
            `hashicorp/vault-k8s agent-inject/agent/annotations.go@v1.7.6). ${STUCK_JOB}`,
          `The pod asks for injection (${VAULT_INJECT}: "${annotations[VAULT_INJECT]}"), and ` +
            `the injector has no native-sidecar option through v1.7.6. A Job that needs its ` +
            `secrets renewed while it runs must instead have its program end the agent.`,
        ].join('\n'),
      },
    ],
    findings: [],
  };
}

/** The agent is kept out of the running pod already: the Job completes. */
export function vaultAlreadyInitOnly(): ProposedFinding {
  return {
    severity: 'info',
    code: 'JOB_ALREADY_COMPLETES',
    message:
      `${VAULT_PRE_POPULATE_ONLY}: "true" is set: the Vault Agent Injector adds no sidecar, ` +
      `the Job completes, nothing to do`,
  };
}
