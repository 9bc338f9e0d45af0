/**
 * The text of a document kube-graceful adds to the input (a ConfigMap a Gateway's settings go
 * into): block YAML as everything else it writes, with a comment that says where it comes from.
 */
import { Document } from 'yaml';
import { stringifyOptions } from '../yaml/options.ts';

/** Returns `object` as one YAML document, without a marker, after `# comment` lines if any. */
export function newDocumentText(object: unknown, comment: string): string {
  const options = stringifyOptions();
  const body = new Document(object, options).toString({ ...options, blockQuote: 'literal' });
  if (comment === '') return body;
  const lines = comment.split('\n').map((line) => `# ${line}`.trimEnd());
  return `${lines.join('\n')}\n${body}`;
}
