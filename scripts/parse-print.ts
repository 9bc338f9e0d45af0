/**
 * The floor of issue #16's first target: what reading and writing a stream costs with the
 * project's `yaml` alone. Every document parsed (parseAllDocuments) and printed (toString), with
 * the options kube-graceful reads and writes with (fn/yaml/options.ts). `npm run bench` bundles
 * this and times it next to kube-graceful on the same stream.
 *
 * With `--parse-only` nothing is printed: what parsing alone costs, the floor under target 3
 * (600 Deployments at 0.2× kubectl kustomize), where kube-graceful must parse every workload,
 * Service and Namespace it edits or reads.
 */
import { readFileSync, writeSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { parseOptions, stringifyOptions } from '../fn/yaml/options.ts';

const docs = parseAllDocuments(readFileSync(0, 'utf8'), parseOptions());
if (process.argv.includes('--parse-only')) process.exit(0);
const printed = (Array.isArray(docs) ? docs : [])
  .map((doc) => doc.toString(stringifyOptions()))
  .join('');
writeSync(1, printed);
