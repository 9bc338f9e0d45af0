// Writes examples/manifests/graceful-demo.yaml, the rendered manifests the kustomize and kpt
// examples start from: `helm template demo` of the demo chart with the pinned Helm 3
// (.cache/tools/helm3, installed by scripts/fetch-helm.sh). test/integration/examples.test.ts fails
// when the committed file is not what this writes. Run: npm run golden:update:examples
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath, ROOT } from '../test/helpers/fixtures.ts';
import { helm3Path, helmEnv } from '../test/helpers/tools.ts';

const home = mkdtempSync(join(tmpdir(), 'kg-example-manifests-'));
try {
  const rendered = execFileSync(
    helm3Path(),
    ['template', 'demo', fixturePath('charts', 'graceful-demo')],
    { env: helmEnv(home), encoding: 'utf8' },
  );
  writeFileSync(join(ROOT, 'examples', 'manifests', 'graceful-demo.yaml'), rendered);
  console.log('wrote examples/manifests/graceful-demo.yaml');
} finally {
  rmSync(home, { recursive: true, force: true });
}
