// Writes a big ResourceList of mostly non-workload items on stdout (issue #16: a kpt package of
// JSON schemas, 534 items and 13 MB, as `kpt fn source` writes it for the kpt function catalog's
// kubeval example, took 21 s).
//
// The schemas are real: the OpenAPI v3 schemas of the CRDs in
// test/fixtures/corpus/kube-prometheus-stack-with-crds.yaml, one item per CRD version and group of
// top-level fields of its spec (a CRD holding just those fields' schemas), in one folder per
// Kubernetes minor version as kubeval's schema sets are, until the list holds 534 items (about
// 13 MB). The package's Kptfile and the chart's workloads and Services come first, as
// `kpt fn source` orders files by path. Every item is wrapped as kpt wraps a file's resource: items
// at column 0, compact lists, and the config.kubernetes.io / internal.config.kubernetes.io path and
// index annotations.
//
// STYLE json writes each item as a JSON object on one line, json-indented as indented JSON: the
// flow mappings kpt keeps for a package's JSON files (issue #34 item 1).
//
// Usage: node scripts/krm-schemas.mjs [ITEMS] [block|json|json-indented] > list.yaml
//   (ITEMS: 534 by default, STYLE: block)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, parseAllDocuments } from 'yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ITEMS = Number(process.argv[2] ?? 534);
const STYLE = process.argv[3] ?? 'block';
if (!['block', 'json', 'json-indented'].includes(STYLE)) throw new Error(`unknown style ${STYLE}`);
const chart = parseAllDocuments(
  readFileSync(
    join(ROOT, 'test', 'fixtures', 'corpus', 'kube-prometheus-stack-with-crds.yaml'),
    'utf8',
  ),
  { version: '1.1' },
)
  .map((d) => d.toJS())
  .filter(Boolean);

const KPT_ANNOTATIONS = [
  'config.kubernetes.io/index',
  'config.kubernetes.io/path',
  'internal.config.kubernetes.io/index',
  'internal.config.kubernetes.io/path',
  'internal.config.kubernetes.io/seqindent',
];

/**
 * A resource as kpt fn source wraps the file `path` holding it (its annotations single-quoted, as
 * kyaml writes them).
 */
function item(resource, path) {
  const values = ['0', path, '0', path, 'compact'];
  const annotations = {
    ...(resource.metadata?.annotations ?? {}),
    ...Object.fromEntries(KPT_ANNOTATIONS.map((k, i) => [k, values[i]])),
  };
  const doc = new Document(
    { ...resource, metadata: { ...resource.metadata, annotations } },
    { version: '1.1' },
  );
  if (STYLE !== 'block') {
    const json = JSON.stringify(doc.toJS(), null, STYLE === 'json' ? undefined : 2);
    return { path, text: `- ${json.replace(/\n/g, '\n  ')}\n` };
  }
  for (const key of KPT_ANNOTATIONS)
    doc.getIn(['metadata', 'annotations', key], true).type = 'QUOTE_SINGLE';
  const text = doc.toString({ indentSeq: false, lineWidth: 0 });
  return { path, text: `- ${text.replace(/\n$/, '').replace(/\n(?=[^\n])/g, '\n  ')}\n` };
}

const head = [
  item(
    {
      apiVersion: 'kpt.dev/v1',
      kind: 'Kptfile',
      metadata: { name: 'schemas' },
      info: { description: 'JSON schemas for kubeval, and the workloads they check' },
    },
    'Kptfile',
  ),
];
const workloads = chart.filter((r) =>
  ['Deployment', 'DaemonSet', 'StatefulSet', 'Service'].includes(r.kind),
);
for (const r of workloads)
  head.push(item(r, `app/${r.kind.toLowerCase()}-${r.metadata.name}.yaml`));

/**
 * Schemas of real size and shape: per CRD version, its spec's top-level fields in groups of about
 * 10 KB of schema (fields over 20 KB left out), each group a CRD of its own.
 */
const schemas = [];
for (const crd of chart.filter((r) => r.kind === 'CustomResourceDefinition')) {
  for (const version of crd.spec.versions) {
    let group = {};
    let size = 0;
    const flush = () => {
      if (size > 0) schemas.push({ crd, version, fields: group });
      group = {};
      size = 0;
    };
    for (const [field, schema] of Object.entries(
      version.schema?.openAPIV3Schema?.properties?.spec?.properties ?? {},
    )) {
      const length = JSON.stringify(schema).length;
      // The few huge ones (a whole pod spec) would make a list of 534 items far bigger.
      if (length > 20_000) continue;
      group[field] = schema;
      size += length;
      if (size >= 10_000) flush();
    }
    flush();
  }
}

const items = [...head];
for (let minor = 20; items.length < ITEMS; minor++) {
  for (const { crd, version, fields } of schemas) {
    if (items.length >= ITEMS) break;
    const field = Object.keys(fields)[0].toLowerCase();
    const name = `${field}.${version.name}.${crd.spec.names.plural}.${crd.spec.group}`;
    const resource = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: crd.spec.group,
        names: crd.spec.names,
        scope: crd.spec.scope,
        versions: [
          {
            name: version.name,
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: fields } },
              },
            },
          },
        ],
      },
    };
    items.push(item(resource, `schemas/v1.${minor}-standalone/${name}.yaml`));
  }
}
items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

process.stdout.write(
  ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:', ''].join('\n') +
    items.map((i) => i.text).join(''),
);
