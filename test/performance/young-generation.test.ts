/**
 * Issue #16 item 5: the CLI keeps V8's young generation at two semi-spaces of 2 MiB
 * (fn/stream/youngGeneration.ts), where Node 20 lets a parse-heavy run grow it to 16 MiB each
 * (about 30 MiB of RSS whatever the input). Run as Helm and kpt run it (dist/cli.js, no node
 * flags), with a preload that only reports the young generation's size at exit: a dense stream
 * (bookinfo ×400, 2,400 Deployments: its split alone, 6,800 segments that all live on, can grow
 * the young generation to 8 MiB unless the cap is looked at as they are made) and bookinfo ×100
 * as a ResourceList. Without the cap both end at 16–32 MiB. The code cache must still be taken:
 * the cap sets a V8 flag, and the cache is checked against V8's flags.
 *
 * Issue #34 item 5: a document of a MiB or more (one long double-quoted scalar) is parsed with
 * V8's own heap growth instead, young generation included.
 */
import test from 'ava';
import { denseStream } from '../../scripts/gen-dense.mjs';
import { cliPath, run } from '../helpers/integration.ts';
import { exitReport, NEW_SPACE_BYTES, reported } from '../helpers/exitReport.ts';

const CAP_MIB = 4;

const report = exitReport(NEW_SPACE_BYTES);

/** Returns the young generation's size in MiB at the end of a CLI run over `input`. */
async function youngGenerationMiB(input: string): Promise<{ mib: number; stderr: string }> {
  const result = await run(process.execPath, ['--require', report, cliPath()], {
    input,
    env: { ...process.env, KUBE_GRACEFUL_CODE_CACHE: 'check' },
  });
  if (result.status !== 0) throw new Error(`exit ${result.status}: ${result.stderr}`);
  return { mib: reported(NEW_SPACE_BYTES, result.stderr) / 2 ** 20, stderr: result.stderr };
}

/** The objects of `stream` as the items of a ResourceList laid out as kpt writes it. */
function asResourceList(stream: string): string {
  const items = stream
    .split(/^---\n/m)
    .filter((doc) => /^kind:/m.test(doc))
    .map((doc) => doc.trimEnd().replace(/^/gm, '  ').replace(/^ {2}/, '- '));
  return (
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n' + items.join('\n') + '\n'
  );
}

test('a dense stream runs with the young generation at the cap and the code cache used', async (t) => {
  const { mib, stderr } = await youngGenerationMiB(denseStream(400));
  t.true(mib <= CAP_MIB, `young generation ${mib} MiB`);
  t.regex(stderr, /code cache used/);
});

test('a ResourceList runs with the young generation at the cap', async (t) => {
  const { mib } = await youngGenerationMiB(asResourceList(denseStream(100)));
  t.true(mib <= CAP_MIB, `young generation ${mib} MiB`);
});

test('a document with a 2 MiB scalar lifts the cap: the young generation grows as V8 grows it', async (t) => {
  const words = 'lorem ipsum dolor sit amet '.repeat(80_000);
  const input =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: big\n  annotations:\n' +
    `    example.com/blob: "${words}"\n` +
    'spec:\n  selector:\n    matchLabels: {app: big}\n  template:\n    metadata:\n' +
    '      labels: {app: big, sidecar.istio.io/inject: "true"}\n    spec:\n' +
    '      containers:\n      - name: app\n        image: nginx:1.27\n';
  t.true(input.length > 2 ** 21);
  const { mib, stderr } = await youngGenerationMiB(input);
  t.true(mib > CAP_MIB, `young generation ${mib} MiB`);
  t.regex(stderr, /code cache used/);
});
