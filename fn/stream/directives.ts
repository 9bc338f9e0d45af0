/**
 * The one rule about directives that `yaml` 2.x does not enforce: a document may carry one `%YAML`
 * directive, and one `%TAG` per handle. YAML 1.2.2 §6.8.1: "It is an error to specify more than
 * one YAML directive for the same document, even if both occurrences give the same version
 * number"; §6.8.2: the same for "more than one TAG directive for the same handle". The YAML test
 * suite's case SF5V is exactly this; `yaml` reads it without an error (issue #15.6).
 */
import { KubeGracefulError } from '../core/errors.ts';
import type { ErrorPlace } from '../core/errors.ts';

/**
 * Throws E_PARSE when the directives before a segment's `---` repeat `%YAML` or a `%TAG` handle.
 */
export function checkDirectives(text: string, place: ErrorPlace & { line: number }): void {
  if (!text.includes('%')) return;
  const seen = new Set<string>();
  let line = place.line;
  for (const row of text.split('\n')) {
    if (/^---(?:[ \t\r]|$)/.test(row)) return; // directives end at the directives-end marker
    const directive = /^%(YAML|TAG)[ \t]+(\S*)/.exec(row);
    if (directive) {
      const key = directive[1] === 'YAML' ? '%YAML' : `%TAG ${directive[2]}`;
      if (seen.has(key)) {
        throw new KubeGracefulError(
          'E_PARSE',
          `a second ${key} directive for the same document (YAML 1.2.2 §6.8 allows one)`,
          { ...place, line, column: 1 },
          'Remove the repeated directive line.',
        );
      }
      seen.add(key);
    }
    line++;
  }
}
