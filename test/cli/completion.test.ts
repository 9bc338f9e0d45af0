/**
 * `completion bash|zsh|fish` (issue #28 item 3): scripts generated from the program, run in the
 * real shells. bash is on every machine this runs on; zsh and fish come from Debian's packages
 * (apt-get install zsh fish): without them the test fails rather than pass untested.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliAsync } from '../helpers/cli.ts';

/** Runs `script` in `shell` in an empty folder (no file there completes as a file). */
function inShell(shell: string, args: readonly string[], scriptFile: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kg-completion-'));
  const run = spawnSync(shell, [...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, SCRIPT: scriptFile },
  });
  if (run.error)
    throw new Error(`${shell} is needed (apt-get install ${shell}): ${run.error.message}`);
  return run;
}

async function script(shell: string): Promise<string> {
  const run = await runCliAsync(['completion', shell], '');
  if (run.status !== 0) throw new Error(run.stderr);
  const file = join(mkdtempSync(join(tmpdir(), 'kg-completion-script-')), `kube-graceful.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

test('bash: sourced, it completes commands, options, choices and files', async (t) => {
  const file = await script('bash');
  const bash = inShell(
    'bash',
    [
      '-c',
      [
        'source "$SCRIPT"',
        'complete -p kube-graceful',
        'reply() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kube_graceful;',
        '  echo "${COMPREPLY[*]}"; }',
        'reply kube-graceful ch',
        'reply kube-graceful check --fail',
        'reply kube-graceful --lb-provider aws-n',
        'reply kube-graceful completion ""',
        'reply kube-graceful explain -o ""',
        'reply kube-graceful explain --for',
        'reply kube-graceful --max-request 60 pat',
      ].join('\n'),
    ],
    file,
  );
  t.is(bash.status, 0, bash.stderr);
  t.deepEqual(bash.stdout.split('\n'), [
    'complete -o filenames -F _kube_graceful kube-graceful',
    'check',
    '--fail-on',
    'aws-nlb-ip',
    'bash zsh fish',
    'text json markdown svg html',
    '',
    'patches',
    '',
  ]);
});

test('fish: sourced, `complete -C` completes commands, choices and options', async (t) => {
  const file = await script('fish');
  const fish = inShell(
    'fish',
    [
      '-c',
      'source $SCRIPT; complete -C "kube-graceful ch"; echo ---; ' +
        'complete -C "kube-graceful completion "; echo ---; ' +
        'complete -C "kube-graceful check --fail"',
    ],
    file,
  );
  t.is(fish.status, 0, fish.stderr);
  const [commands, shells, options] = fish.stdout.split('---\n').map((part) =>
    part
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t')[0]),
  );
  t.deepEqual(commands, ['check']);
  t.deepEqual(shells, ['bash', 'fish', 'zsh']);
  t.deepEqual(options, ['--fail-on']);
});

test('zsh: the script parses, registers with compdef and lists every command', async (t) => {
  const file = await script('zsh');
  const syntax = inShell('zsh', ['-n', file], file);
  t.is(syntax.status, 0, syntax.stderr);
  const loaded = inShell(
    'zsh',
    [
      '-c',
      'autoload -U compinit && compinit -u -D; source $SCRIPT; print ${_comps[kube-graceful]}',
    ],
    file,
  );
  t.is(loaded.status, 0, loaded.stderr);
  t.is(loaded.stdout, '_kube-graceful\n');
  const run = await runCliAsync(['completion', 'zsh'], '');
  for (const command of ['explain', 'check', 'patches', 'version', 'completion', 'help'])
    t.regex(run.stdout, new RegExp(`^    '${command}:`, 'm'));
  t.regex(run.stdout, /'--lb-provider\[[^\]]*\]:value:\(aws-nlb-ip /);
});

test('an unknown shell is a usage error listing the shells', async (t) => {
  const run = await runCliAsync(['completion', 'powershell'], '');
  t.is(run.status, 2);
  t.regex(run.stderr, /Allowed choices are bash, zsh, fish/);
});
