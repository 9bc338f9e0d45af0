/**
 * The Helm 4 plugin as a file (issue #28): renderer/ packaged with `helm plugin package`, then
 * installed from the tarball, which Helm copies into its plugins folder (`helm plugin install
 * <folder>` links instead, test/integration/helm4.test.ts). Signed with a key made here, and
 * verified on install, as Helm 4 does by default; and unsigned, which installs only with
 * `--verify=false`.
 */
import test, { type ExecutionContext } from 'ava';
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertGatewayPatched,
  assertJobNative,
  DEMO_CHART,
  doc,
  ROOT,
  run,
  runOk,
  splitDocs,
  tempDir,
} from '../helpers/integration.ts';
import { helm4Path, helmEnv, requireTool } from '../helpers/tools.ts';

const helm = helm4Path();
const gpg = requireTool('gpg');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};
const tarball = `kube-graceful-${version}.tgz`;
const render = ['template', 'demo', DEMO_CHART, '--post-renderer', 'kube-graceful'];

/** What renderer/ linked with `helm plugin install <folder>` renders: the expected output. */
const linked = (async () => {
  const env = helmEnv(tempDir('plugin-linked'));
  const install = await run(helm, ['plugin', 'install', join(ROOT, 'renderer')], { env });
  if (install.status !== 0) throw new Error(install.stderr);
  return (await run(helm, render, { env })).stdout;
})();

/** Asserts the plugin installed in `env` is a copy, lists as `provenance`, and renders. */
async function assertInstalled(
  t: ExecutionContext,
  env: NodeJS.ProcessEnv,
  provenance: 'signed' | 'unsigned',
): Promise<void> {
  const installed = join(env['HELM_DATA_HOME']!, 'plugins', 'kube-graceful');
  t.true(lstatSync(installed).isDirectory(), 'a folder of its own, not a link to renderer/');
  // NAME VERSION TYPE APIVERSION PROVENANCE SOURCE
  const row = (await runOk(t, helm, ['plugin', 'list'], { env }))
    .split('\n')
    .find((line) => line.startsWith('kube-graceful'));
  t.deepEqual(row?.split(/\s+/).slice(0, 5), [
    'kube-graceful',
    version,
    'postrenderer/v1',
    'v1',
    provenance,
  ]);
  const output = await runOk(t, helm, render, { env });
  t.is(output, await linked, 'the same output as renderer/ linked');
  const docs = splitDocs(output);
  assertGatewayPatched(t, doc(t, docs, 'Deployment', 'demo-gateway').object, 'packaged plugin');
  assertJobNative(t, doc(t, docs, 'Job', 'demo-migrate').object, 'packaged plugin');
}

test('helm plugin package renderer --sign=false, then helm plugin install of the file with --verify=false', async (t) => {
  const home = tempDir('plugin-unsigned');
  const env = helmEnv(home);
  const out = join(home, 'out');
  await runOk(t, helm, ['plugin', 'package', join(ROOT, 'renderer'), '--sign=false', '-d', out], {
    env,
  });
  const verified = await run(helm, ['plugin', 'install', join(out, tarball)], { env });
  t.not(verified.status, 0, 'Helm 4 verifies a plugin file by default');
  t.regex(verified.stderr, /no provenance file/);
  await runOk(t, helm, ['plugin', 'install', join(out, tarball), '--verify=false'], { env });
  await assertInstalled(t, env, 'unsigned');
});

test('helm plugin package renderer signed with a PGP key, then helm plugin install of the file verifies it', async (t) => {
  const home = tempDir('plugin-signed');
  const env = helmEnv(home);
  const gnupg = join(home, 'gnupg');
  mkdirSync(gnupg, { mode: 0o700 });
  const gpgEnv = { ...process.env, GNUPGHOME: gnupg };
  // gpg starts an agent for this home: stop it with the test.
  t.teardown(() => run(requireTool('gpgconf'), ['--kill', 'all'], { env: gpgEnv }));
  const uid = 'kube-graceful test <test@example.invalid>';
  const batch = ['--batch', '--pinentry-mode', 'loopback', '--passphrase', ''];
  await runOk(t, gpg, [...batch, '--quick-gen-key', uid, 'rsa2048', 'sign', 'never'], {
    env: gpgEnv,
  });
  // Helm reads the keyrings of GnuPG 1 (--keyring): exported ones.
  const secring = join(home, 'secring.gpg');
  const pubring = join(home, 'pubring.gpg');
  await runOk(t, gpg, [...batch, '--output', secring, '--export-secret-keys'], { env: gpgEnv });
  await runOk(t, gpg, ['--batch', '--output', pubring, '--export'], { env: gpgEnv });

  const out = join(home, 'out');
  await runOk(
    t,
    helm,
    ['plugin', 'package', join(ROOT, 'renderer'), '--key', uid, '--keyring', secring, '-d', out],
    { env },
  );
  const installed = await runOk(
    t,
    helm,
    ['plugin', 'install', join(out, tarball), '--keyring', pubring],
    { env },
  );
  t.regex(installed, /Plugin Hash Verified/);
  await assertInstalled(t, env, 'signed');
});
