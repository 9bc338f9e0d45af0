// The container case of `npm run bench` (issue #18): one `podman run` of the KRM function on the
// small gateway chart, as a ResourceList (what kustomize and kpt send), against `podman run` of a
// no-op Node program (`node -e 0`) on the same base image. Both start as kustomize and kpt start a
// function (--network none --user nobody), so the ratio and the difference are the function's
// own cost inside the container, with podman's start-up on both sides.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

export const IMAGE = process.env.KUBE_GRACEFUL_IMAGE ?? 'localhost/kube-graceful:dev';
export const BASE =
  process.env.KUBE_GRACEFUL_BASE_IMAGE ?? 'localhost/kube-graceful-base:node20-trixie';

const RUN = [
  'run',
  '--rm',
  '-i',
  '--network',
  'none',
  '--user',
  'nobody',
  '--security-opt=no-new-privileges',
];

/**
 * Builds the image from dist/ and returns the two commands (argv, stdin file), or
 * `{ skip: reason }` when podman or the base image is missing.
 */
export function containerCommands(root, work, chart) {
  const podman = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (podman.error || podman.status !== 0)
    return { skip: 'podman is not installed (npm run image sets it up)' };
  if (spawnSync('podman', ['image', 'exists', BASE]).status !== 0)
    return { skip: `no base image ${BASE} in podman storage (npm run image builds it)` };
  const build = spawnSync('bash', [join(root, 'scripts', 'image', 'build.sh')], {
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`bench: building ${IMAGE} failed:\n${build.stderr}`);
  const list = join(work, 'resource-list.yaml');
  const items = parseAllDocuments(readFileSync(chart, 'utf8'), { version: '1.1' })
    .map((d) => d.toJS())
    .filter(Boolean);
  writeFileSync(
    list,
    stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items }),
  );
  return {
    version: podman.stdout.trim(),
    commands: [
      { label: 'podman run kube-graceful', argv: ['podman', ...RUN, IMAGE], stdin: list },
      { label: 'podman run node -e 0', argv: ['podman', ...RUN, BASE, '-e', '0'] },
    ],
  };
}
