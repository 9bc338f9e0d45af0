/**
 * A stand-in `docker` client for container KRM functions (no Docker engine here): put its folder
 * first on PATH and `kubectl kustomize --enable-alpha-plugins` or `kpt fn eval --image` run our
 * image's ENTRYPOINT, read from the Dockerfile and mapped to the built files, instead of an image.
 * Every call is recorded (argv as JSON, one line each) so tests can assert how the tools start it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './fixtures.ts';
import { writeExecutable } from './integration.ts';

/** The image name the examples and tests use for the container form (`docker build -t kube-graceful:0.1.0 .`). */
export const IMAGE = 'kube-graceful:0.1.0';
/**
 * The same local image by its full name. kpt rewrites a name without a registry to
 * gcr.io/kpt-fn/<name>, so kpt needs this form; docker resolves it to the local image.
 */
export const IMAGE_FULL = `docker.io/library/${IMAGE}`;

/** What the Dockerfile's final stage runs, and where its files come from in the build stage. */
export interface DockerfileEntrypoint {
  /** ENTRYPOINT as written (exec form). */
  readonly entrypoint: readonly string[];
  /** USER of the final stage. */
  readonly user: string | undefined;
  /** FROM of the final stage. */
  readonly base: string;
  /** The ENTRYPOINT with image paths replaced by the local files they are copied from. */
  readonly local: readonly string[];
}

/** Reads the repository's Dockerfile (exec-form ENTRYPOINT, `COPY --from=<build stage>` files). */
export function dockerfileEntrypoint(file = join(ROOT, 'Dockerfile')): DockerfileEntrypoint {
  const lines = readFileSync(file, 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: { base: string; name?: string; workdir: string; user?: string; copies: Map<string, { from: string; src: string }>; entrypoint?: string[] }[] = [];
  for (const line of lines) {
    const [instruction = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const stage = stages.at(-1);
    switch (instruction.toUpperCase()) {
      case 'FROM': {
        const [base = '', , name] = rest;
        stages.push({ base, ...(name ? { name } : {}), workdir: '/', copies: new Map() });
        break;
      }
      case 'WORKDIR':
        stage!.workdir = args;
        break;
      case 'USER':
        stage!.user = args;
        break;
      case 'COPY': {
        const from = /--from=(\S+)/.exec(args)?.[1];
        const paths = rest.filter((r) => !r.startsWith('--'));
        if (from && paths.length === 2) stage!.copies.set(paths[1]!, { from, src: paths[0]! });
        break;
      }
      case 'ENTRYPOINT':
        stage!.entrypoint = JSON.parse(args) as string[];
        break;
    }
  }
  const final = stages.at(-1);
  if (!final?.entrypoint) throw new Error(`${file}: the final stage has no exec-form ENTRYPOINT`);
  const local = final.entrypoint.map((part, index) => {
    if (index === 0 && /\/node$/.test(part)) return process.execPath;
    // A file copied as itself, or inside a copied folder (`COPY --from=build /src/dist/ /app/`).
    const folder = [...final.copies.keys()].find((dest) => dest.endsWith('/') && part.startsWith(dest));
    const copy = final.copies.get(part) ?? (folder ? final.copies.get(folder) : undefined);
    if (!copy) return part;
    const stage = stages.find((s) => s.name === copy.from);
    if (!stage) throw new Error(`${file}: COPY --from=${copy.from}: no such stage`);
    return join(ROOT, relative(stage.workdir, copy.src), folder && !final.copies.has(part) ? part.slice(folder.length) : '');
  });
  return { entrypoint: final.entrypoint, user: final.user, base: final.base, local };
}

/** One recorded `docker` call. */
export type DockerCall = readonly string[];

/** A stand-in docker in `dir`: put `dir` first on PATH; `calls()` returns what it was asked. */
export interface StandinDocker {
  readonly dir: string;
  calls(): DockerCall[];
}

/** Writes the stand-in into `dir` (which should hold nothing else). */
export function standinDocker(dir: string): StandinDocker {
  const log = join(dir, 'calls.jsonl');
  writeFileSync(log, '');
  const entry = dockerfileEntrypoint().local;
  const images = { [IMAGE]: entry, [IMAGE_FULL]: entry };
  const script = join(dir, 'docker.mjs');
  writeFileSync(
    script,
    `// stand-in docker: runs the image's entrypoint locally (see test/helpers/standinDocker.ts)
import { appendFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const images = ${JSON.stringify(images)};
const argv = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(argv) + '\\n');
if (argv[0] === 'version') { console.log('27.0.0-stand-in'); process.exit(0); }
if (argv[0] !== 'run') { console.error('stand-in docker: only "run" and "version" are supported, got ' + argv[0]); process.exit(125); }
const withValue = new Set(['-a', '--attach', '-e', '--env', '--network', '--net', '--user', '-u', '--security-opt', '--pull', '--name', '-v', '--volume', '--mount', '-w', '--workdir', '--entrypoint', '--platform', '--cidfile', '--log-driver']);
const env = { PATH: process.env.PATH };
let i = 1;
for (; i < argv.length && argv[i].startsWith('-'); i++) {
  const [flag, inline] = argv[i].split(/=(.*)/s);
  const value = inline ?? (withValue.has(flag) ? argv[++i] : undefined);
  if ((flag === '-e' || flag === '--env') && value) { const [k, v] = value.split(/=(.*)/s); env[k] = v ?? process.env[k] ?? ''; }
  if (flag === '-v' || flag === '--volume' || flag === '--mount' || flag === '--entrypoint') { console.error('stand-in docker: ' + flag + ' is not supported'); process.exit(125); }
}
const image = argv[i];
const entrypoint = images[image];
if (!entrypoint) { console.error('Unable to find image ' + JSON.stringify(image) + ' (stand-in docker knows ' + Object.keys(images).join(', ') + ')'); process.exit(125); }
// A container sees only the variables passed with -e, never the caller's environment.
const result = spawnSync(entrypoint[0], [...entrypoint.slice(1), ...argv.slice(i + 1)], { stdio: 'inherit', env });
process.exit(result.status ?? 125);
`,
  );
  // `docker version` is answered by sh itself, without starting Node: kpt runs it with a 5 s limit
  // of its own (versionCommandTimeout in kptdev/kpt internal/fnruntime/container.go; kpt
  // 1.0.0-beta.56 here) and on a busy machine a Node start-up took longer: "[FAIL] … in 5.3s
  // error: signal: killed / docker must be running" (issue #15.7). The call is still recorded.
  writeExecutable(
    join(dir, 'docker'),
    [
      '#!/bin/sh',
      'if [ "${1:-}" = version ]; then',
      "  line='['; sep=''",
      '  for arg in "$@"; do',
      `    arg=$(printf '%s' "$arg" | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g')`,
      `    line="$line$sep\\"$arg\\""; sep=','`,
      '  done',
      `  printf '%s]\\n' "$line" >>${JSON.stringify(log)}`,
      "  echo '27.0.0-stand-in'",
      '  exit 0',
      'fi',
      `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"`,
      '',
    ].join('\n'),
  );
  return {
    dir,
    calls: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]),
  };
}

/** Returns the value of a `docker run` option (`--flag value` or `--flag=value`), or undefined. */
export function optionValue(call: DockerCall, flag: string): string | undefined {
  for (let i = 0; i < call.length; i++) {
    if (call[i] === flag) return call[i + 1];
    if (call[i]!.startsWith(`${flag}=`)) return call[i]!.slice(flag.length + 1);
  }
  return undefined;
}
