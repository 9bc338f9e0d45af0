/**
 * The real `kubectl kustomize` (kustomize v5.5.0, the engine Flux's helm-controller uses) over a
 * render and the list `kube-graceful patches` printed: a kustomization whose resources are the
 * render and whose `patches:` is that list, as a HelmRelease's postRenderers hold it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { requireTool } from './tools.ts';

const kubectl = requireTool('kubectl');

/** What `kubectl kustomize` printed and its exit status. */
export interface KustomizeRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** Returns a folder holding `render.yaml` and a kustomization patching it with `patches`. */
function kustomization(render: string, patches: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kg-patches-'));
  writeFileSync(join(dir, 'render.yaml'), render);
  const list = parse(patches) as unknown[];
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    `resources: [render.yaml]\n${
      list.length
        ? `patches:\n${patches
            .replace(/^#.*\n/, '')
            .replace(/^/gm, '  ')
            .trimEnd()}\n`
        : ''
    }`,
  );
  return dir;
}

const BUFFER = 256 * 1024 * 1024;

/** Returns the kustomize build of `render` with `patches` (the text `patches` printed). */
export function kustomize(render: string, patches: string): KustomizeRun {
  const run = spawnSync(kubectl, ['kustomize', kustomization(render, patches)], {
    encoding: 'utf8',
    maxBuffer: BUFFER,
  });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}

/** At most this many `kubectl kustomize` at once: the test machines have two cores. */
const CONCURRENCY = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** As kustomize, without blocking the test process, and at most CONCURRENCY at a time. */
export async function kustomizeAsync(render: string, patches: string): Promise<KustomizeRun> {
  if (running >= CONCURRENCY) await new Promise<void>((resume) => waiting.push(resume));
  running++;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      kubectl,
      ['kustomize', kustomization(render, patches)],
      { encoding: 'utf8', maxBuffer: BUFFER },
    );
    return { stdout, stderr, status: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number };
    return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', status: failed.code ?? 1 };
  } finally {
    running--;
    waiting.shift()?.();
  }
}
