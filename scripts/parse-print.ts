/**
 * The floor of issue #16's first target: what reading and writing a stream costs with the
 * project's `yaml` alone. Every document parsed (parseAllDocuments) and printed (toString), with
 * the options kube-graceful reads and writes with (fn/yaml/options.ts). `npm run bench` bundles
 * this and times it next to kube-graceful on the same stream.
 */
import { readFileSync, writeSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { parseOptions, stringifyOptions } from '../fn/yaml/options.ts';

const docs = parseAllDocuments(readFileSync(0, 'utf8'), parseOptions());
const printed = (Array.isArray(docs) ? docs : [])
  .map((doc) => doc.toString(stringifyOptions()))
  .join('');
writeSync(1, printed);
