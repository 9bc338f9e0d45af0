// The Job wrapper is shell script that lands in users' manifests, so these tests RUN it: the exact
// argv Kubernetes would exec, under each POSIX sh that container images commonly have as /bin/sh
// (dash: Debian/Ubuntu; busybox ash: Alpine and busybox images; bash in POSIX mode: RHEL/UBI),
// against loopback HTTP servers standing in for pilot-agent (/quitquitquit) and linkerd-proxy
// (/shutdown). busybox is required, not optional: `apt-get install -y busybox` (.ci/run does).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  WRAPPER_MARKER,
  cloudSqlProxyQuitEndpoint,
  consulQuitEndpoint,
  daprQuitEndpoint,
  isWrapped,
  istioQuitEndpoint,
  linkerdQuitEndpoint,
  unwrapCommand,
  wrapCommand,
  wrappedQuitUrls,
} from '../../../fn/mutators/job/wrapper.ts';
import type { QuitEndpoint } from '../../../fn/mutators/job/wrapper.ts';
import { HANG_GUARD_MS } from '../../helpers/hangGuard.ts';
import { startStandinProxy } from '../../helpers/standinProxy.ts';
import type { Recorded } from '../../helpers/standinProxy.ts';

// ---------------------------------------------------------------------------------------------
// Environment: shells, HTTP clients, scratch directories
// ---------------------------------------------------------------------------------------------

function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const scratch = mkdtempSync(join(tmpdir(), 'kg-wrap-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

let dirCounter = 0;
/** A fresh directory holding only the given symlinks (name → target): a PATH with exactly these. */
function makeDir(label: string, links: Record<string, string> = {}): string {
  const dir = join(scratch, `${label}-${dirCounter++}`);
  mkdirSync(dir);
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(dir, name));
  return dir;
}

interface Shell {
  readonly name: string;
  /** What replaces argv[0] ('/bin/sh') of the wrapped command: a file named `sh`. */
  readonly path: string;
}

const busybox = which('busybox');
const bash = which('bash');
const systemSh = realpathSync('/bin/sh');

// /bin/sh is exec'd as is: that is exactly what Kubernetes runs. The other shells are reached
// through a symlink named `sh`, which is how images install them (busybox picks its applet from
// argv[0]; bash started as `sh` enters POSIX mode).
const shells: Shell[] = [{ name: `${basename(systemSh)} (/bin/sh)`, path: '/bin/sh' }];
if (busybox !== undefined) {
  shells.push({ name: 'busybox ash', path: join(makeDir('busybox', { sh: busybox }), 'sh') });
}
if (bash !== undefined && basename(systemSh) !== 'bash') {
  shells.push({ name: 'bash --posix', path: join(makeDir('bash', { sh: bash }), 'sh') });
}

test('busybox is installed (busybox ash is /bin/sh in Alpine images; apt-get install -y busybox)', (t) => {
  // Fails loudly rather than skipping: a green run must mean the busybox variant really ran.
  t.truthy(busybox, 'busybox not found on PATH: the busybox sh/wget variants did not run');
});

// HTTP clients. Every PATH below holds nothing but the client under test: the wrapper itself must
// need only shell builtins, as in a minimal image. Programs are run by absolute path.
const curl = which('curl');
const gnuWget = which('wget');
interface Client {
  readonly name: string;
  readonly path: string; // PATH value
}
const clients: Client[] = [
  { name: 'curl', path: makeDir('curl', curl === undefined ? {} : { curl }) },
  { name: 'GNU wget', path: makeDir('gnu-wget', gnuWget === undefined ? {} : { wget: gnuWget }) },
  {
    name: 'busybox wget',
    path: makeDir('bb-wget', busybox === undefined ? {} : { wget: busybox }),
  },
];
const noClient: Client = { name: 'no curl, no wget', path: makeDir('none') };

test('curl and GNU wget are installed (each quit client variant must really run)', (t) => {
  t.truthy(curl, 'curl not found');
  t.truthy(gnuWget, 'GNU wget not found');
});

// A program that prints its argv as JSON: node, so the observer shares no code with the shell.
const printArgv = join(scratch, 'print-argv.cjs');
writeFileSync(printArgv, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');

// ---------------------------------------------------------------------------------------------
// Fake proxies and the runner
// ---------------------------------------------------------------------------------------------

interface FakeProxy {
  /** The requests answered so far, in order. */
  readonly requests: Recorded[];
  readonly port: number;
}

/**
 * Starts a loopback stand-in that records every request and answers `status`. It answers from its
 * own process (test/helpers/standinProxy.ts): the wrapper's quit call has the product's 5 s limit,
 * which a server inside this busy test worker missed on a loaded machine (issue #15.7).
 */
async function fakeProxy(
  t: ExecutionContext,
  options: { status?: number; doneFile?: string } = {},
): Promise<FakeProxy> {
  const proxy = await startStandinProxy(options);
  t.teardown(proxy.close);
  return {
    get requests() {
      return proxy.requests();
    },
    port: proxy.port,
  };
}

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunOptions {
  readonly path?: string;
  readonly env?: Record<string, string>;
  readonly stdin?: string;
  /** Called once stdout contains this text: the program is up and its traps are installed. */
  readonly whenStdout?: { readonly text: string; readonly then: (pid: number) => void };
}

/**
 * Execs argv as Kubernetes would (`spawn(argv[0], argv.slice(1))`), with argv[0] swapped for the
 * shell under test, and resolves when it has exited and its output is drained.
 */
function run(shell: Shell, argv: readonly string[], options: RunOptions = {}): Promise<Outcome> {
  if (argv[0] !== '/bin/sh') throw new Error(`not a wrapped command: ${argv[0]}`);
  return new Promise<Outcome>((resolve, reject) => {
    const child = spawn(shell.path, argv.slice(1), {
      env: { PATH: options.path ?? process.env.PATH ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group, so a run that hangs can be killed with everything it started.
      // Signals under test still go to the wrapper's pid alone, as the kubelet sends them.
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let triggered = false;
    // A hang guard only, never a measure of speed (test/helpers/hangGuard.ts): it turns a real
    // hang into a message with the output so far, and kills what the run started.
    const deadline = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(
        new Error(
          `hung for ${HANG_GUARD_MS / 1000} s; ` +
            `stdout=${JSON.stringify(stdout)} stderr=${JSON.stringify(stderr)}`,
        ),
      );
    }, HANG_GUARD_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (
        !triggered &&
        options.whenStdout !== undefined &&
        stdout.includes(options.whenStdout.text)
      ) {
        triggered = true;
        options.whenStdout.then(child.pid ?? 0);
      }
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    });
    // A program that never reads stdin may be gone before the write: EPIPE is not a failure.
    child.stdin.on('error', () => {
      // EPIPE: see above
    });
    child.stdin.end(options.stdin ?? '');
  });
}

const sh = (script: string, ...args: string[]): string[] => [
  '/bin/sh',
  '-c',
  script,
  'program',
  ...args,
];

/**
 * A program that sleeps briefly (so a premature quit call would be seen), marks itself done, exits.
 */
function finishingProgram(doneFile: string, code: number): string[] {
  return sh('/bin/sleep 0.1; : >"$1"; exit "$2"', doneFile, String(code));
}

const QUIT_ISTIO = { method: 'POST', path: '/quitquitquit', programDone: true };
const QUIT_LINKERD = { method: 'POST', path: '/shutdown', programDone: true };

// ---------------------------------------------------------------------------------------------
// Pure API
// ---------------------------------------------------------------------------------------------

test('wrapCommand has the documented shape and defaults', (t) => {
  const wrapped = wrapCommand(['python', 'job.py'], [istioQuitEndpoint()]);
  t.is(wrapped.length, 6);
  t.deepEqual(wrapped.slice(0, 2), ['/bin/sh', '-c']);
  t.deepEqual(wrapped.slice(3), [WRAPPER_MARKER, 'python', 'job.py']);
  t.is(WRAPPER_MARKER, 'kube-graceful-wrap');
  t.deepEqual(istioQuitEndpoint(), { mesh: 'istio', url: 'http://127.0.0.1:15020/quitquitquit' });
  t.deepEqual(linkerdQuitEndpoint(), { mesh: 'linkerd', url: 'http://127.0.0.1:4191/shutdown' });
  t.deepEqual(istioQuitEndpoint(15099), {
    mesh: 'istio',
    url: 'http://127.0.0.1:15099/quitquitquit',
  });
  t.deepEqual(linkerdQuitEndpoint(1), { mesh: 'linkerd', url: 'http://127.0.0.1:1/shutdown' });
  t.deepEqual(linkerdQuitEndpoint(65535).url, 'http://127.0.0.1:65535/shutdown');
});

test('the script names kube-graceful and the issue, and holds nothing Kubernetes would expand', (t) => {
  const script = wrapCommand(['true'], [istioQuitEndpoint(), linkerdQuitEndpoint()])[2] ?? '';
  const firstLine = script.split('\n')[0] ?? '';
  t.true(firstLine.startsWith('# kube-graceful'));
  t.true(firstLine.includes('kubernetes/kubernetes#25908'));
  // Kubernetes expands $(VAR) and reduces $$ to $ in command (core/v1 Container.command).
  t.false(script.includes('$('));
  t.false(script.includes('$$'));
  t.true(script.includes('quit istio http://127.0.0.1:15020/quitquitquit'));
  t.true(script.includes('quit linkerd http://127.0.0.1:4191/shutdown'));
  t.true(script.split('\n').length < 30, 'short enough to read in a manifest');
});

test('ports must be integers from 1 to 65535', (t) => {
  for (const bad of [
    0,
    -1,
    65536,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '15020' as unknown as number,
  ]) {
    t.throws(() => istioQuitEndpoint(bad), { instanceOf: RangeError }, String(bad));
    t.throws(() => linkerdQuitEndpoint(bad), { instanceOf: RangeError }, String(bad));
  }
});

test('hand-made endpoints are rejected unless our constructors could have made them', (t) => {
  const hostile: QuitEndpoint[] = [
    { mesh: 'istio', url: 'http://127.0.0.1:15020/quitquitquit; rm -rf /' },
    { mesh: 'istio', url: 'http://127.0.0.1:15020/quitquitquit\nrm -rf /' },
    { mesh: 'istio', url: 'http://evil.example:15020/quitquitquit' },
    { mesh: 'istio', url: 'http://127.0.0.1:15020/shutdown' },
    { mesh: 'linkerd', url: 'http://127.0.0.1:4191/quitquitquit' },
    { mesh: 'istio', url: 'http://127.0.0.1:99999/quitquitquit' },
    { mesh: 'istio', url: 'http://127.0.0.1:0/quitquitquit' },
    { mesh: 'kuma' as 'istio', url: 'http://127.0.0.1:15020/quitquitquit' },
    { mesh: 'consul', url: 'http://127.0.0.1:20600/quitquitquit' },
    { mesh: 'dapr', url: 'http://127.0.0.1:3500/shutdown' },
    { mesh: 'istio', url: 'http://127.0.0.1:15020/v1.0/shutdown' },
    { mesh: 'dapr', url: 'http://127.0.0.1:3500/v1.0/shutdown?force=1' },
  ];
  for (const endpoint of hostile)
    t.throws(() => wrapCommand(['true'], [endpoint]), undefined, endpoint.url);
  t.throws(() => wrapCommand([], [istioQuitEndpoint()]), { instanceOf: TypeError });
  t.throws(() => wrapCommand(['true'], []), { instanceOf: TypeError });
});

test('duplicate endpoints are called once', (t) => {
  const once = wrapCommand(['true'], [istioQuitEndpoint()]);
  t.deepEqual(wrapCommand(['true'], [istioQuitEndpoint(), istioQuitEndpoint()]), once);
});

test('isWrapped / unwrapCommand round trip; wrapping is idempotent and deterministic', (t) => {
  const endpoints = [istioQuitEndpoint(), linkerdQuitEndpoint()];
  fc.assert(
    fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (command) => {
      // node:assert throws, so fast-check sees a failure and shrinks it.
      const wrapped = wrapCommand(command, endpoints);
      assert.equal(isWrapped(wrapped), true);
      assert.deepEqual(unwrapCommand(wrapped), command);
      assert.deepEqual(
        wrapCommand(wrapped, endpoints),
        wrapped,
        'a second run does not wrap twice',
      );
      assert.deepEqual(wrapCommand([...command], endpoints), wrapped, 'same input, same output');
      // The script is the same for every command: argv never enters it.
      assert.equal(wrapped[2], wrapCommand(['x'], endpoints)[2]);
      assert.equal(isWrapped(command), false);
      assert.equal(unwrapCommand(command), undefined);
    }),
    { numRuns: 200 },
  );
  t.pass();
  // Re-wrapping with other endpoints replaces them instead of nesting.
  const rewrapped = wrapCommand(wrapCommand(['job'], [istioQuitEndpoint()]), [
    linkerdQuitEndpoint(),
  ]);
  t.deepEqual(rewrapped, wrapCommand(['job'], [linkerdQuitEndpoint()]));
  t.false(isWrapped(undefined));
  t.false(isWrapped(['/bin/sh', '-c', 'echo hi', WRAPPER_MARKER, 'job']), 'someone else’s script');
});

// ---------------------------------------------------------------------------------------------
// Running the wrapper, once per shell
// ---------------------------------------------------------------------------------------------

for (const shell of shells) {
  test(`${shell.name}: Istio quit arrives once, after a program that succeeds`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const istio = await fakeProxy(t, { doneFile: done });
    const out = await run(
      shell,
      wrapCommand(finishingProgram(done, 0), [istioQuitEndpoint(istio.port)]),
    );
    t.is(out.code, 0, out.stderr);
    t.deepEqual(istio.requests, [QUIT_ISTIO]);
    t.is(out.stderr, '');
  });

  test(`${shell.name}: Linkerd quit arrives once, after a program that fails`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const linkerd = await fakeProxy(t, { doneFile: done });
    const out = await run(
      shell,
      wrapCommand(finishingProgram(done, 1), [linkerdQuitEndpoint(linkerd.port)]),
    );
    t.is(out.code, 1, out.stderr);
    t.deepEqual(linkerd.requests, [QUIT_LINKERD]);
  });

  test(`${shell.name}: both proxies are asked once each`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const istio = await fakeProxy(t, { doneFile: done });
    const linkerd = await fakeProxy(t, { doneFile: done });
    const argv = wrapCommand(finishingProgram(done, 42), [
      istioQuitEndpoint(istio.port),
      linkerdQuitEndpoint(linkerd.port),
    ]);
    const out = await run(shell, argv);
    t.is(out.code, 42, out.stderr);
    t.deepEqual(istio.requests, [QUIT_ISTIO]);
    t.deepEqual(linkerd.requests, [QUIT_LINKERD]);
  });

  test(`${shell.name}: Istio and the Cloud SQL Auth Proxy (POST /quitquitquit on its admin port) are each asked once, after the program`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const istio = await fakeProxy(t, { doneFile: done });
    const cloudSql = await fakeProxy(t, { doneFile: done });
    const argv = wrapCommand(finishingProgram(done, 3), [
      istioQuitEndpoint(istio.port),
      cloudSqlProxyQuitEndpoint(cloudSql.port),
    ]);
    const out = await run(shell, argv);
    t.is(out.code, 3, out.stderr);
    t.deepEqual(istio.requests, [QUIT_ISTIO]);
    t.deepEqual(cloudSql.requests, [QUIT_ISTIO], 'the same path and method as pilot-agent');
    t.deepEqual(wrappedQuitUrls(argv), [
      `http://127.0.0.1:${istio.port}/quitquitquit`,
      `http://127.0.0.1:${cloudSql.port}/quitquitquit`,
    ]);
  });

  // Dapr's shutdown API (dapr/dapr pkg/api/http/shutdown.go@v1.18.3): POST /v1.0/shutdown on
  // daprd's HTTP port, asked once the program has exited, beside a mesh proxy.
  test(`${shell.name}: Dapr's daprd (POST /v1.0/shutdown) and Istio are each asked once, after the program`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const istio = await fakeProxy(t, { doneFile: done });
    const dapr = await fakeProxy(t, { doneFile: done });
    const argv = wrapCommand(finishingProgram(done, 0), [
      istioQuitEndpoint(istio.port),
      daprQuitEndpoint(dapr.port),
    ]);
    const out = await run(shell, argv);
    t.is(out.code, 0, out.stderr);
    t.deepEqual(istio.requests, [QUIT_ISTIO]);
    t.deepEqual(
      dapr.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /v1.0/shutdown'],
    );
    t.deepEqual(wrappedQuitUrls(argv), [
      `http://127.0.0.1:${istio.port}/quitquitquit`,
      `http://127.0.0.1:${dapr.port}/v1.0/shutdown`,
    ]);
  });

  // consul-dataplane's graceful-shutdown endpoint (hashicorp/consul-dataplane
  // pkg/consuldp/lifecycle.go@v1.9.9): POST /graceful_shutdown on its lifecycle port.
  test(`${shell.name}: Consul's consul-dataplane (POST /graceful_shutdown) is asked once, after the program`, async (t) => {
    const done = join(makeDir('done'), 'done');
    const consul = await fakeProxy(t, { doneFile: done });
    const argv = wrapCommand(finishingProgram(done, 7), [consulQuitEndpoint(consul.port)]);
    const out = await run(shell, argv);
    t.is(out.code, 7, out.stderr);
    t.deepEqual(
      consul.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /graceful_shutdown'],
    );
  });

  test(`${shell.name}: the program's exit code is the wrapper's (0, 1, 42, 127, SIGKILL → 137)`, async (t) => {
    const istio = await fakeProxy(t);
    const endpoints = [istioQuitEndpoint(istio.port)];
    const cases: Array<[string[], number]> = [
      [sh('exit 0'), 0],
      [sh('exit 1'), 1],
      [sh('exit 42'), 42],
      [sh('kill -KILL $$'), 137],
      [['/nonexistent/program'], 127],
    ];
    for (const [program, expected] of cases) {
      const out = await run(shell, wrapCommand(program, endpoints));
      t.is(out.code, expected, `${program.join(' ')}: ${out.stderr}`);
    }
    t.is(istio.requests.length, cases.length, 'one quit call per run');
  });

  test(`${shell.name}: SIGTERM to the wrapper reaches the program; its own exit code wins`, async (t) => {
    const marker = join(makeDir('term'), 'got-term');
    const istio = await fakeProxy(t);
    // The program traps TERM, leaves a marker and exits 42. `sleep` in the foreground: the
    // program's trap runs between commands, within 50 ms.
    const program = sh(
      `trap 'echo term >"$1"; exit 42' TERM; echo ready; while :; do /bin/sleep 0.05; done`,
      marker,
    );
    const out = await run(shell, wrapCommand(program, [istioQuitEndpoint(istio.port)]), {
      whenStdout: { text: 'ready', then: (pid) => process.kill(pid, 'SIGTERM') },
    });
    t.is(out.code, 42, out.stderr);
    t.is(readFileSync(marker, 'utf8'), 'term\n');
    t.deepEqual(
      istio.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /quitquitquit'],
    );
  });

  test(`${shell.name}: the program's exit codes under TERM hold over many tries (wait/trap race)`, async (t) => {
    // The race this guards: wait returns early on a trapped signal, and the shell may already
    // have reaped the program then. A loop that asked "is the pid alive?" (`kill -0`) returned 143
    // instead of the program's 42 within 10 tries under each of dash, busybox and bash.
    const istio = await fakeProxy(t);
    // The program must exit the instant TERM arrives to open that window: it sits in an
    // interruptible `wait` (a busy loop did not expose the race). Its trap kills the sleep, and it
    // says ready only once the sleep has exec'd (/proc/PID/comm): a TERM sent to a child that sh
    // has forked but not yet exec'd is caught by the inherited trap handler and lost, which leaked
    // sleeps before this check.
    const program = sh(
      `trap 'kill "$s"; exit 42' TERM; /bin/sleep 30 >/dev/null 2>&1 & s=$!; ` +
        'while read -r c <"/proc/$s/comm"; [ "$c" != sleep ]; do :; done; echo ready; wait',
    );
    for (let i = 0; i < 10; i++) {
      const out = await run(shell, wrapCommand(program, [istioQuitEndpoint(istio.port)]), {
        whenStdout: { text: 'ready', then: (pid) => process.kill(pid, 'SIGTERM') },
      });
      t.is(out.code, 42, `try ${i}: ${out.stderr}`);
    }
    t.is(istio.requests.length, 10);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${shell.name}: ${signal} stops a program that has no handler (→ 143) and the proxy is still asked`, async (t) => {
      const istio = await fakeProxy(t);
      // `exec` makes the program pid the sleep itself. A plain `sleep` started in the background
      // ignores INT (POSIX), which is why the wrapper forwards INT as TERM.
      const program = sh('echo ready; exec /bin/sleep 30');
      const out = await run(shell, wrapCommand(program, [istioQuitEndpoint(istio.port)]), {
        whenStdout: { text: 'ready', then: (pid) => process.kill(pid, signal) },
      });
      t.is(out.code, 143, out.stderr);
      t.is(out.signal, null);
      t.is(istio.requests.length, 1);
    });
  }

  for (const client of clients) {
    test(`${shell.name}: quit through ${client.name} only`, async (t) => {
      const istio = await fakeProxy(t);
      const linkerd = await fakeProxy(t);
      const argv = wrapCommand(sh('exit 42'), [
        istioQuitEndpoint(istio.port),
        linkerdQuitEndpoint(linkerd.port),
      ]);
      const out = await run(shell, argv, { path: client.path });
      t.is(out.code, 42, out.stderr);
      t.is(out.stderr, '');
      t.deepEqual(
        istio.requests.map((r) => `${r.method} ${r.path}`),
        ['POST /quitquitquit'],
      );
      t.deepEqual(
        linkerd.requests.map((r) => `${r.method} ${r.path}`),
        ['POST /shutdown'],
      );
    });

    test(`${shell.name}: a failed quit through ${client.name} is reported and keeps the exit code`, async (t) => {
      const istio = await fakeProxy(t, { status: 503 });
      for (const code of [0, 3]) {
        const out = await run(
          shell,
          wrapCommand(sh(`exit ${code}`), [istioQuitEndpoint(istio.port)]),
          {
            path: client.path,
          },
        );
        t.is(out.code, code, out.stderr);
        t.true(
          out.stderr.includes(
            `kube-graceful-wrap: could not ask the istio proxy to quit ` +
              `(http://127.0.0.1:${istio.port}/quitquitquit)`,
          ),
          out.stderr,
        );
      }
      t.is(istio.requests.length, 2, 'one attempt per run, no retries');
    });

    test(`${shell.name}: ${client.name} ignores http_proxy for the loopback quit call`, async (t) => {
      const istio = await fakeProxy(t);
      const dead = 'http://127.0.0.1:9'; // nothing listens: a proxied call would fail
      const out = await run(shell, wrapCommand(sh('exit 5'), [istioQuitEndpoint(istio.port)]), {
        path: client.path,
        env: { http_proxy: dead, HTTP_PROXY: dead, all_proxy: dead, ALL_PROXY: dead },
      });
      t.is(out.code, 5, out.stderr);
      t.is(out.stderr, '');
      t.is(istio.requests.length, 1);
    });
  }

  test(`${shell.name}: without curl and wget the exit code holds and one clear line per proxy is printed`, async (t) => {
    for (const code of [0, 42]) {
      const out = await run(
        shell,
        wrapCommand(sh(`exit ${code}`), [istioQuitEndpoint(), linkerdQuitEndpoint()]),
        {
          path: noClient.path,
        },
      );
      t.is(out.code, code, out.stderr);
      t.deepEqual(out.stderr.trimEnd().split('\n'), [
        'kube-graceful-wrap: neither curl nor wget in the image; ' +
          'the istio proxy was not asked to quit (the Job will not complete: ' +
          'add curl or wget to the image, or run the proxy as a native sidecar)',
        'kube-graceful-wrap: neither curl nor wget in the image; ' +
          'the linkerd proxy was not asked to quit (the Job will not complete: ' +
          'add curl or wget to the image, or run the proxy as a native sidecar)',
      ]);
    }
  });

  test(`${shell.name}: the wrapper's variables leave the program's environment alone`, async (t) => {
    const istio = await fakeProxy(t);
    const env = { pid: '1', sig: 'TERM', rc: '7' };
    const out = await run(
      shell,
      wrapCommand(sh('printf "%s %s %s" "$pid" "$sig" "$rc"'), [istioQuitEndpoint(istio.port)]),
      {
        env,
      },
    );
    t.is(out.code, 0, out.stderr);
    t.is(out.stdout, '1 TERM 7');
    t.is(istio.requests.length, 1);
  });

  test(`${shell.name}: the container's stdin reaches the program`, async (t) => {
    // An asynchronous list gets /dev/null as stdin (POSIX XCU 2.9.3) unless the wrapper hands
    // the real one over.
    const istio = await fakeProxy(t);
    const out = await run(shell, wrapCommand(['/bin/cat'], [istioQuitEndpoint(istio.port)]), {
      stdin: 'line one\nline "two" $x\n',
    });
    t.is(out.code, 0, out.stderr);
    t.is(out.stdout, 'line one\nline "two" $x\n');
  });

  test(`${shell.name}: arbitrary argv in command and args reaches the program unchanged`, async (t) => {
    const istio = await fakeProxy(t);
    const endpoints = [istioQuitEndpoint(istio.port)];
    const script = wrapCommand(['x'], endpoints)[2];
    const nasty = fc.constantFrom(
      '"',
      "'",
      '$',
      '`',
      '\n',
      '\r',
      '\t',
      ' ',
      '\\',
      '$(HOME)',
      '$(VAR)',
      '$$',
      '$$(VAR)',
      '$@',
      '"$@"',
      '${x}',
      '$1',
      '*',
      '?',
      '[a]',
      ';',
      '&',
      '|',
      '<',
      '>',
      '#',
      '~',
      '!',
      '%s',
      '-',
      '--',
      '-e',
      '--help',
      '-c',
      'é',
      '漢字',
      '😀',
      '\u202e',
      '\u00a0',
    );
    const piece = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 5 }));
    // NUL cannot be in argv; lone surrogates cannot be encoded as UTF-8 argv at all.
    const arg = fc
      .oneof(
        fc.constant(''),
        fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('')),
      )
      .filter((s) => !s.includes('\0') && Buffer.from(s, 'utf8').toString('utf8') === s);
    await fc.assert(
      fc.asyncProperty(
        fc.array(arg, { maxLength: 5 }),
        fc.array(arg, { maxLength: 5 }),
        async (commandTail, args) => {
          const wrapped = wrapCommand([process.execPath, printArgv, ...commandTail], endpoints);
          assert.equal(wrapped[2], script, 'the script does not depend on argv');
          // Kubernetes execs command + args: the container's args follow the wrapped command.
          const out = await run(shell, [...wrapped, ...args]);
          assert.equal(out.code, 0, out.stderr);
          assert.deepEqual(JSON.parse(out.stdout), [...commandTail, ...args]);
        },
      ),
      { numRuns: 25 },
    );
    t.true(istio.requests.length >= 25, 'the proxy was asked on every run');
  });
}
