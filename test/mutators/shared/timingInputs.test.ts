/** The timing inputs of a workload: W from the Services in front of it, with its source. */
import test from 'ava';
import { transform } from '../../../fn/engine/transform.ts';
import { appGraceful } from '../../../fn/mutators/app/index.ts';

const service = (name: string, type = 'ClusterIP') =>
  `---\n` +
  `apiVersion: v1\n` +
  `kind: Service\n` +
  `metadata: {name: ${name}, namespace: shop}\n` +
  `spec:\n` +
  `  type: ${type}\n` +
  `  selector: {app: web}\n` +
  `  ports: [{port: 80, targetPort: 8080}]\n`;
const deployment =
  '---\n' +
  'apiVersion: apps/v1\n' +
  'kind: Deployment\n' +
  'metadata: {name: web, namespace: shop}\n' +
  'spec:\n' +
  '  selector: {matchLabels: {app: web}}\n' +
  '  template:\n' +
  '    metadata: {labels: {app: web}}\n' +
  '    spec:\n' +
  '      containers:\n' +
  '      - name: web\n' +
  '        image: nginx\n' +
  '        ports: [{containerPort: 8080}]\n';

test('the longest window wins and a few others are named; reasons do not grow with the Service count', (t) => {
  const services =
    Array.from({ length: 40 }, (_, i) => service(`in-cluster-${i}`)).join('') +
    service('public', 'LoadBalancer');
  const { changes } = transform(services + deployment, { mutators: [appGraceful] });
  const preStop = changes.find((c) => c.path.at(-1) === 'preStop');
  t.truthy(preStop);
  t.regex(preStop!.reason, /W from Service shop\/public/);
  t.regex(preStop!.reason, /and 37 more/);
  t.true(preStop!.reason.length < 1500, `reason is ${preStop!.reason.length} characters`);
});
