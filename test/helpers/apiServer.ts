/**
 * A loopback stand-in for a Kubernetes API server, enough for `helm install --dry-run` (Helm 3)
 * and `--dry-run=server` (Helm 4). Found with a recording server; Helm 3.17.2 and 4.1.4 ask, in
 * order:
 *
 *   GET /version                         server version (reachability check)
 *   GET /api, /apis                      discovery (aggregated-discovery Accept, plain JSON answer
 *                                        works)
 *   GET /api/v1, /apis/apps/v1, …        resource lists, for the REST mapping of every kind
 *                                        rendered
 *   GET /openapi/v3, then /openapi/v2    client-side validation; v2 must answer: an empty protobuf
 *                                        document (0 bytes, any parseable content type) has no
 *                                        schemas, so every kind is accepted unvalidated
 *   GET /api/v1/namespaces/default/configmaps/NAME, …   does the object exist? (404: no)
 *
 * Helm 4's `install --dry-run` / `--dry-run=client` sends no request at all.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A running stand-in: its URL, a kubeconfig for it, and every request it got. */
export interface ApiServer {
  readonly url: string;
  /** Path of a kubeconfig whose current context points at this server. */
  readonly kubeconfig: string;
  /** `METHOD /path` of each request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

const resource = (name: string, kind: string, namespaced = true) => ({
  name,
  singularName: kind.toLowerCase(),
  namespaced,
  kind,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
});

const ROUTES: Record<string, unknown> = {
  '/version': { major: '1', minor: '32', gitVersion: 'v1.32.0', platform: 'linux/amd64' },
  '/api': {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
  },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: ['apps', 'batch', 'policy'].map((name) => ({
      name,
      versions: [{ groupVersion: `${name}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' },
    })),
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      resource('configmaps', 'ConfigMap'),
      resource('secrets', 'Secret'),
      resource('services', 'Service'),
      resource('serviceaccounts', 'ServiceAccount'),
      resource('namespaces', 'Namespace', false),
    ],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'apps/v1',
    resources: [
      resource('deployments', 'Deployment'),
      resource('statefulsets', 'StatefulSet'),
      resource('daemonsets', 'DaemonSet'),
    ],
  },
  '/apis/batch/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'batch/v1',
    resources: [resource('jobs', 'Job'), resource('cronjobs', 'CronJob')],
  },
  '/apis/policy/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'policy/v1',
    resources: [resource('poddisruptionbudgets', 'PodDisruptionBudget')],
  },
};

/** Starts the stand-in on a free loopback port and writes its kubeconfig into `dir`. */
export async function startApiServer(dir: string): Promise<ApiServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      requests.push(`${req.method} ${path}`);
      if (path === '/openapi/v2') {
        // An empty protobuf OpenAPI v2 document. Go's mime parser rejects the real content type
        // (application/com.github.proto-openapi.spec.v2@v1.0+protobuf), so send a neutral one.
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '0' });
        res.end();
        return;
      }
      const body = ROUTES[path];
      const status = req.method === 'GET' && body !== undefined ? 200 : 404;
      const answer =
        status === 200
          ? body
          : {
              kind: 'Status',
              apiVersion: 'v1',
              metadata: {},
              status: 'Failure',
              message: `${path} not found`,
              reason: 'NotFound',
              code: 404,
            };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigFor(url));
  return {
    url,
    kubeconfig,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A kubeconfig with one context for `server` (no credentials: the stand-in asks for none). */
export function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: stand-in`,
    `  cluster: {server: "${server}"}`,
    'users:',
    '- name: stand-in',
    '  user: {}',
    'contexts:',
    '- name: stand-in',
    '  context: {cluster: stand-in, user: stand-in, namespace: default}',
    'current-context: stand-in',
    '',
  ].join('\n');
}
