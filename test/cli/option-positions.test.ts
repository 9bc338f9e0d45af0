/**
 * Every option works in any position, or is a usage error; none is dropped (issue #28 item 2).
 * The parse is checked in process for every option the program declares, before and after each
 * subcommand's name; the effect of the headline cases through the real CLI.
 */
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { buildProgram } from '../../fn/cli/program.ts';
import { runCliAsync } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-nlb.yaml');
const CURL = fixturePath('corpus', 'istio-sample-curl-curl.yaml');
const SUBCOMMANDS = ['check', 'explain', 'patches'] as const;

/** A program whose commands parse their options and run nothing. */
function program(): CommandUnknownOpts {
  return buildProgram(() => Promise.resolve());
}

/** Returns the command `argv` ran, after parsing it. */
async function parsed(argv: readonly string[]): Promise<CommandUnknownOpts> {
  const root = program();
  let ran: CommandUnknownOpts | undefined;
  root.hook('postAction', (_root, action) => {
    ran = action;
  });
  await root.parseAsync(['node', 'kube-graceful', ...argv]);
  if (!ran) throw new Error(`nothing ran for ${argv.join(' ')}`);
  return ran;
}

/** Returns the words that give `option` a value it accepts. */
function written(option: Option): { words: string[]; value: unknown } {
  const flag = option.long ?? option.short!;
  if (!option.required && !option.optional) return { words: [flag], value: true };
  const value = option.argChoices ? option.argChoices.at(-1)! : 'given-value';
  return { words: [flag, value], value };
}

const shared = (sub: string): Option[] => {
  const root = program();
  const command = root.commands.find((c) => c.name() === sub)!;
  return root.options.filter((o) =>
    command.options.some((c) => c.attributeName() === o.attributeName()),
  );
};

for (const sub of SUBCOMMANDS) {
  test(`every option ${sub} shares with the root reaches ${sub} before and after its name`, async (t) => {
    const options = shared(sub);
    t.true(options.length > 20, 'the settings, --config, --all-documents, --log-file');
    for (const option of options) {
      const { words, value } = written(option);
      const key = option.attributeName();
      const before = await parsed([...words, sub, GATEWAY]);
      const after = await parsed([sub, ...words, GATEWAY]);
      t.is(before.name(), sub);
      t.is(before.opts()[key], value, `${words.join(' ')} ${sub}`);
      t.is(after.opts()[key], value, `${sub} ${words.join(' ')}`);
      const same = await parsed([...words, sub, ...words, GATEWAY]);
      t.is(same.opts()[key], value, 'the same value on both sides is that value');
    }
  });
}

test('every option of the transform works before and after the files', async (t) => {
  for (const option of program().options) {
    if (option.long === '--version' || option.long === '--help') continue;
    const { words, value } = written(option);
    const key = option.attributeName();
    t.is((await parsed([...words, GATEWAY])).opts()[key], value, `${words.join(' ')} FILE`);
    t.is((await parsed([GATEWAY, ...words])).opts()[key], value, `FILE ${words.join(' ')}`);
  }
});

/** The terminationGracePeriodSeconds check proposes for the NLB gateway. */
function grace(stdout: string): string | undefined {
  return /terminationGracePeriodSeconds: 30 → (\d+)/.exec(stdout)?.[1];
}

test('--max-request 60 gives G = 245 whether it comes before or after check', async (t) => {
  const [plain, before, after] = await Promise.all([
    runCliAsync(['check', GATEWAY], ''),
    runCliAsync(['--max-request', '60', 'check', GATEWAY], ''),
    runCliAsync(['check', '--max-request', '60', GATEWAY], ''),
  ]);
  t.is(grace(plain.stdout), '205');
  t.is(grace(before.stdout), '245', before.stderr);
  t.is(grace(after.stdout), '245', after.stderr);
  t.is(before.stdout, after.stdout);
});

test('--kube-version 1.28 before explain and patches changes what they propose', async (t) => {
  // Kubernetes 1.28 has no preStop sleep action on by default (KEP-3960, on from 1.30).
  for (const sub of ['explain', 'patches'] as const) {
    const [plain, before, after] = await Promise.all([
      runCliAsync([sub, CURL], ''),
      runCliAsync(['--kube-version', '1.28', sub, CURL], ''),
      runCliAsync([sub, '--kube-version', '1.28', CURL], ''),
    ]);
    t.is(before.status, after.status, before.stderr);
    t.not(before.stdout, plain.stdout, `${sub}: the version changed the answer`);
    t.is(before.stdout, after.stdout, `${sub}: before and after the name are the same`);
  }
  const check = await runCliAsync(['--kube-version', '1.28', 'check', CURL], '');
  t.regex(check.stdout, /PRESTOP_NOT_WRITTEN/);
  t.notRegex(check.stdout, /"sleep"/);
});

test('-c before a subcommand applies the config', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kg-positions-'));
  const config = join(dir, 'cfg.yaml');
  writeFileSync(
    config,
    'apiVersion: kube-graceful.dev/v1alpha1\nkind: GracefulShutdown\nspec:\n' +
      '  timing:\n    maxRequestSeconds: 60\n',
  );
  const runs = await Promise.all(
    SUBCOMMANDS.flatMap((sub) => [
      runCliAsync(['-c', config, sub, GATEWAY], ''),
      runCliAsync([sub, '-c', config, GATEWAY], ''),
    ]),
  );
  for (const run of runs) t.regex(run.stdout, /245/, run.stderr);
  t.is(grace(runs[0]!.stdout), '245');
});

test('an option given before and after with different values is a usage error', async (t) => {
  const run = await runCliAsync(
    ['--max-request', '60', 'check', '--max-request', '30', GATEWAY],
    '',
  );
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /--max-request is given twice, "60" before check and "30" after it/);
});

test('a transform-only option before a subcommand is a usage error', async (t) => {
  const runs = await Promise.all([
    runCliAsync(['--diff', 'check', GATEWAY], ''),
    runCliAsync(['--report', 'r.txt', 'explain', GATEWAY], ''),
    runCliAsync(['--fail-on', 'error', 'check', GATEWAY], ''),
  ]);
  for (const run of runs) {
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '');
  }
  t.regex(runs[0].stderr, /--diff is not an option of check/);
  t.regex(runs[1].stderr, /--report is not an option of explain/);
  t.regex(runs[2].stderr, /unknown option '--fail-on'/);
});
