/**
 * kustomizePatches (fn/report/patches.ts) on hand-made records: what each kind of record becomes in
 * a strategic-merge or JSON 6902 patch. test/cli/patches.test.ts applies real patches with
 * `kubectl kustomize`.
 */
import test from 'ava';
import { parse } from 'yaml';
import type { ChangeRecord } from '../../fn/core/records.ts';
import type { FieldPath } from '../../fn/core/fieldPath.ts';
import type { KubeObject } from '../../fn/core/kubeObject.ts';
import { kustomizePatches } from '../../fn/report/patches.ts';

const ARGS = ['--entryPoints.web.address=:8000/tcp', '--log.level=INFO'];

/** A Traefik-like workload of `apiVersion`, its one container's args as ARGS. */
function workload(apiVersion: string, kind: string): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: { name: 'traefik', namespace: 'traefik' },
    spec: { template: { spec: { containers: [{ name: 'traefik', args: [...ARGS] }] } } },
  };
}

function record(object: KubeObject, path: FieldPath, before: unknown, after: unknown) {
  return {
    mutator: 'traefik-drain',
    resource: {
      apiVersion: object.apiVersion!,
      kind: object.kind!,
      name: 'traefik',
      namespace: 'traefik',
    },
    document: 1,
    path,
    before,
    after,
    reason: 'test',
  } satisfies ChangeRecord;
}

const ARG = (index: number): FieldPath => [
  'spec',
  'template',
  'spec',
  'containers',
  { key: 'name', equals: 'traefik' },
  'args',
  index,
];

/** Records as traefik-drain makes them: a value replaced in its item, two flags appended. */
function argRecords(object: KubeObject): ChangeRecord[] {
  return [
    record(object, ARG(1), ARGS[1], '--log.level=DEBUG'),
    record(object, ARG(2), undefined, '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s'),
    record(
      object,
      ARG(3),
      undefined,
      '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
    ),
  ];
}

test('args items set by position: a strategic-merge patch carries the whole list as the records leave it', (t) => {
  // A strategic merge replaces a list without a merge key whole (issue #26 item 6: each item on its
  // own threw "no list item 2").
  const object = workload('apps/v1', 'Deployment');
  const [entry] = kustomizePatches([
    { ref: argRecords(object)[0]!.resource, original: object, records: argRecords(object) },
  ]);
  const patch = parse(entry!.patch) as {
    spec: { template: { spec: { containers: Array<{ name: string; args: string[] }> } } };
  };
  t.deepEqual(patch.spec.template.spec.containers, [
    {
      name: 'traefik',
      args: [
        ARGS[0]!,
        '--log.level=DEBUG',
        '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
        '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
      ],
    },
  ]);
});

test('args items set by position: a JSON 6902 patch replaces and appends those items only', (t) => {
  const object = workload('argoproj.io/v1alpha1', 'Rollout');
  const [entry] = kustomizePatches([
    { ref: argRecords(object)[0]!.resource, original: object, records: argRecords(object) },
  ]);
  const operations = parse(entry!.patch) as Array<{ op: string; path: string; value?: unknown }>;
  const args = '/spec/template/spec/containers/0/args';
  t.deepEqual(
    operations.filter((o) => o.op !== 'test'),
    [
      { op: 'replace', path: `${args}/1`, value: '--log.level=DEBUG' },
      {
        op: 'add',
        path: `${args}/2`,
        value: '--entryPoints.web.transport.lifeCycle.graceTimeOut=20s',
      },
      {
        op: 'add',
        path: `${args}/3`,
        value: '--entryPoints.web.transport.lifeCycle.requestAcceptGraceTimeout=180s',
      },
    ],
  );
});

test('a strategic-merge patch names every list item before the last it edits, so kustomize keeps the order', (t) => {
  // kustomize puts a patch's items of a merged list first: without the names, the second container
  // would move first and a new variable before the chart's.
  const object = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'linkerd-proxy', image: 'proxy' },
            {
              name: 'web',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
            { name: 'logger', image: 'logger' },
          ],
        },
      },
    },
  } as KubeObject;
  const web = ['spec', 'template', 'spec', 'containers', { key: 'name', equals: 'web' }] as const;
  const records: ChangeRecord[] = [
    { ...record(object, [...web, 'env', { key: 'name', equals: 'C' }, 'value'], undefined, '3') },
    { ...record(object, [...web, 'env', { key: 'name', equals: 'A' }, 'value'], '1', '0') },
  ].map((r) => ({ ...r, resource: { ...r.resource, name: 'web', namespace: 'shop' } }));
  const [entry] = kustomizePatches([{ ref: records[0]!.resource, original: object, records }]);
  const patch = parse(entry!.patch) as { spec: { template: { spec: { containers: unknown } } } };
  t.deepEqual(patch.spec.template.spec.containers, [
    { name: 'linkerd-proxy' },
    {
      name: 'web',
      env: [{ name: 'A', value: '0' }, { name: 'B' }, { name: 'C', value: '3' }],
    },
  ]);
});

test('a patch that ends on a value with a final line break ends with a comment, which kustomize keeps it by', (t) => {
  // kubernetes-sigs/kustomize#5795: kustomize v5.5.0 drops the final line break of a block scalar
  // that ends a patch.
  const object = workload('apps/v1', 'Deployment');
  const config = 'drainDuration: 185s\nparentShutdownDuration: 200s\n';
  const path = ['spec', 'template', 'metadata', 'annotations', 'proxy.istio.io/config'];
  const records = [record(object, path, undefined, config)];
  const [entry] = kustomizePatches([{ ref: records[0]!.resource, original: object, records }]);
  t.regex(entry!.patch, /\n +parentShutdownDuration: 200s\n# [^\n]*\n$/);
  const patch = parse(entry!.patch) as { spec: { template: { metadata: unknown } } };
  t.deepEqual(patch.spec.template.metadata, { annotations: { 'proxy.istio.io/config': config } });
  const other = [record(object, ['spec', 'replicas'], 1, 2)];
  t.false(
    kustomizePatches([
      { ref: other[0]!.resource, original: object, records: other },
    ])[0]!.patch.includes('#'),
    'no comment where the patch ends on anything else',
  );
});
