// Which legacy gateway pods let pilot-agent read proxy.istio.io/config: the podinfo volume of the
// real legacy chart render (test/fixtures/corpus/istio-ingress-legacy-1.16.7-nlb.yaml) and the
// ways a pod can miss it.
import test from 'ava';
import { mountsPodAnnotations } from '../../fn/workloads/podAnnotationsFile.ts';
import type { Container, PodTemplate } from '../../fn/core/kubeObject.ts';
import { corpusObject } from '../helpers/fixtures.ts';

const deployment = corpusObject('istio-ingress-legacy-1.16.7-nlb.yaml', 'Deployment') as {
  spec: { template: PodTemplate };
};
const template = deployment.spec.template;
const proxy = template.spec!.containers!.find((c) => c.name === 'istio-proxy')!;

/** A copy of the render's template with its proxy container and volumes changed. */
function variant(
  change: (container: Record<string, unknown>, spec: Record<string, unknown>) => void,
): { template: PodTemplate; proxy: Container } {
  const copy = structuredClone<PodTemplate>(template);
  const container = copy.spec!.containers!.find((c) => c.name === 'istio-proxy')!;
  change(
    container as unknown as Record<string, unknown>,
    copy.spec as unknown as Record<string, unknown>,
  );
  return { template: copy, proxy: container };
}

test('the legacy chart render at 1.16.7 mounts the pod annotations at /etc/istio/pod', (t) => {
  t.true(mountsPodAnnotations(template, proxy));
});

test('no podinfo mount on the proxy container: not read', (t) => {
  const v = variant((c) => {
    c['volumeMounts'] = (c['volumeMounts'] as Array<{ name: string }>).filter(
      (m) => m.name !== 'podinfo',
    );
  });
  t.false(mountsPodAnnotations(v.template, v.proxy));
});

test('mounted elsewhere, or through a subPath: not where pilot-agent looks', (t) => {
  const elsewhere = variant((c) => {
    for (const m of c['volumeMounts'] as Array<{ name: string; mountPath: string }>)
      if (m.name === 'podinfo') m.mountPath = '/var/run/podinfo';
  });
  t.false(mountsPodAnnotations(elsewhere.template, elsewhere.proxy));
  const sub = variant((c) => {
    for (const m of c['volumeMounts'] as Array<{ name: string; subPath?: string }>)
      if (m.name === 'podinfo') m.subPath = 'labels';
  });
  t.false(mountsPodAnnotations(sub.template, sub.proxy));
});

test('the volume without the annotations item: not read', (t) => {
  const v = variant((_c, spec) => {
    for (const volume of spec['volumes'] as Array<{
      name: string;
      downwardAPI?: { items: Array<{ path: string }> };
    }>) {
      if (volume.name === 'podinfo')
        volume.downwardAPI!.items = volume.downwardAPI!.items.filter(
          (i) => i.path !== 'annotations',
        );
    }
  });
  t.false(mountsPodAnnotations(v.template, v.proxy));
});
