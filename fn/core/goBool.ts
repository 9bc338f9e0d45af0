/**
 * Go's strconv.ParseBool, which the upstream projects read their boolean switches with (Istio's
 * env.Register bool, pkg/env/var.go@1.26.8; the Vault Agent Injector's annotations through
 * parseutil.ParseBool, agent-inject/agent/annotations.go@v1.7.6): the one reader of them here.
 */

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** Returns the boolean Go reads from `text`, or undefined for anything it refuses. */
export function parseGoBool(text: unknown): boolean | undefined {
  if (typeof text !== 'string') return undefined;
  if (TRUE.includes(text)) return true;
  if (FALSE.includes(text)) return false;
  return undefined;
}
