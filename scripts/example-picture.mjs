#!/usr/bin/env node
// Writes the README's example picture: `kube-graceful explain -o svg` of the quickstart chart
// (docs/images/quickstart-timeline.svg). Run after `npm run build`; test/explain/svg.test.ts fails
// when the committed picture is not what this script writes.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EXAMPLE_ARGS = [
  'explain',
  '--output',
  'svg',
  'examples/quickstart/istio-gateway-nlb.yaml',
];
export const EXAMPLE_PICTURE = 'docs/images/quickstart-timeline.svg';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const svg = execFileSync(process.execPath, [join(root, 'dist', 'cli.js'), ...EXAMPLE_ARGS], {
    cwd: root,
    encoding: 'utf8',
  });
  writeFileSync(join(root, EXAMPLE_PICTURE), svg);
  console.log(`wrote ${EXAMPLE_PICTURE}`);
}
