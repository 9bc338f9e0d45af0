// Istio ambient mode (issue #13 item 14), on real renders: the bookinfo sample and ingress-nginx's
// hook Jobs in a namespace labelled istio.io/dataplane-mode: ambient, as Istio's ambient
// getting-started has users label it. No sidecar settings; an info finding says what applies.
import test from 'ava';
import { formatPath } from '../../../fn/core/fieldPath.ts';
import { transform } from '../../../fn/engine/transform.ts';
import { corpus } from '../../helpers/fixtures.ts';

const namespace = (name: string) =>
  `apiVersion: v1\n` +
  `kind: Namespace\n` +
  `metadata:\n` +
  `  name: ${name}\n` +
  `  labels:\n` +
  `    istio.io/dataplane-mode: ambient\n` +
  `---\n`;

test('bookinfo in an ambient namespace: the apps get preStop and grace, no Istio sidecar settings', (t) => {
  const r = transform(namespace('default') + corpus('istio-sample-kube-bookinfo.yaml'), {
    flags: { namespace: 'default' },
  });
  const ambient = r.findings.filter((f) => f.code === 'ISTIO_AMBIENT');
  t.is(ambient.length, 6, 'one per Deployment');
  t.regex(ambient[0]!.message, /ztunnel/);
  t.regex(ambient[0]!.message, /preStop/);
  const paths = r.changes.map((c) => formatPath(c.path));
  t.true(paths.length > 0);
  t.deepEqual(
    paths.filter((p) => /annotations|istio-proxy/.test(p)),
    [],
  );
  t.true(
    paths.every((p) => /lifecycle\.preStop$|terminationGracePeriodSeconds$/.test(p)),
    paths.join('\n'),
  );
});

test('hook Jobs in an ambient namespace: nothing to quit, said so', (t) => {
  const r = transform(namespace('ingress-nginx') + corpus('ingress-nginx.yaml'), {
    flags: { 'app-mode': 'off' },
  });
  const jobs = r.findings.filter((f) => f.mutator === 'job-sidecar-quit');
  t.true(jobs.length > 0);
  t.true(
    jobs.every((f) => f.code === 'ISTIO_AMBIENT' || f.code === 'JOB_HELM3_HOOK'),
    jobs.map((f) => f.code).join(', '),
  );
  t.deepEqual(
    r.changes.filter((c) => c.mutator === 'job-sidecar-quit'),
    [],
  );
});
