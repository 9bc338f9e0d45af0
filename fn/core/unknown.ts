/**
 * What a shutdown timeline depends on that kube-graceful does not model (issue #26): a verdict may
 * be ✓ or ✗ only where every event comes from modelled facts (a setting read or written, an
 * upstream default at that version, a load balancer recognised in the stream or given by the
 * user); anything else makes it "unknown", naming what is not known and how to tell the tool.
 */

/** One thing not known, and how the user makes it known. */
export interface Unknown {
  /** What is not known, as a phrase: "how long hello's preStop (httpGet) delays SIGTERM". */
  readonly what: string;
  /** How to tell kube-graceful: the flag, annotation or edit that makes it known. */
  readonly tell: string;
  /** A few words that qualify the number it is about where a timeline draws it: "a guess". */
  readonly brief?: string;
}
