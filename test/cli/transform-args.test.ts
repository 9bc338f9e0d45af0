/**
 * The transform reads files like explain and check do (issue #17): `kube-graceful FILE…`, `-` for
 * stdin, and `help`; enumerated settings list their values and a wrong one names the flag.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.ts';
import { fixturePath } from '../helpers/fixtures.ts';

const GATEWAY = fixturePath('corpus', 'istio-gateway-1.30.3-nlb.yaml');
const JOB = fixturePath('corpus', 'descheduler-cronjob.yaml');

test('a file argument gives the same output as the file on stdin', (t) => {
  const fromStdin = runCli([], readFileSync(GATEWAY));
  const fromFile = runCli([GATEWAY], '');
  t.is(fromStdin.status, 0, fromStdin.stderr);
  t.is(fromFile.status, 0, fromFile.stderr);
  t.not(fromFile.stdout, readFileSync(GATEWAY, 'utf8'), 'the gateway is patched');
  t.is(fromFile.stdout, fromStdin.stdout);
});

test('- reads stdin, and several files are read as one stream in order', (t) => {
  const dash = runCli(['-'], readFileSync(GATEWAY));
  t.is(dash.status, 0, dash.stderr);
  t.is(dash.stdout, runCli([], readFileSync(GATEWAY)).stdout);
  const both = runCli([GATEWAY, '-'], readFileSync(JOB));
  t.is(both.status, 0, both.stderr);
  const gateway = runCli([GATEWAY], '').stdout;
  t.true(both.stdout.startsWith(gateway.trimEnd()), 'the first file comes first, patched as alone');
  t.true(both.stdout.includes('kind: CronJob'), 'the second (stdin) follows');
});

test('a missing file is a usage error naming it, with nothing on stdout', (t) => {
  const run = runCli(['does-not-exist.yaml'], '');
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /cannot read does-not-exist\.yaml: ENOENT/);
});

test('`help` and `help explain` print usage, exit 0', (t) => {
  const help = runCli(['help'], '');
  t.is(help.status, 0, help.stderr);
  t.regex(help.stdout, /Usage: kube-graceful \[options\] \[command\] \[files\.\.\.\]/);
  const explain = runCli(['help', 'explain'], '');
  t.is(explain.status, 0, explain.stderr);
  t.regex(explain.stdout, /Usage: kube-graceful explain/);
});

test('--help lists the allowed values of every enumerated setting', (t) => {
  const help = runCli(['--help'], '').stdout.replace(/\s+/g, ' ');
  t.regex(
    help,
    new RegExp(
      String.raw`--lb-provider <value> .*\(choices: "aws-nlb-ip", "aws-alb-ip", "gke-neg", ` +
        String.raw`"azure-appgw", "generic-lb", "in-cluster"\)`,
    ),
  );
  t.regex(help, /--sidecar-mode <value> .*\(choices: "auto", "native", "classic"\)/);
  t.regex(help, /--job-mode <value> .*\(choices: "auto", "native", "wrap", "off"\)/);
});

test('a wrong value names the flag or key, the value and the allowed values', (t) => {
  const flag = runCli(['--lb-provider', 'aws-nlb'], readFileSync(GATEWAY));
  t.is(flag.status, 2);
  t.is(flag.stdout, '');
  t.regex(
    flag.stderr,
    new RegExp(
      String.raw`--lb-provider <value>.* argument 'aws-nlb' is invalid\. Allowed choices are ` +
        String.raw`aws-nlb-ip, aws-alb-ip, gke-neg, azure-appgw, generic-lb, in-cluster`,
    ),
  );
  const configMap =
    'apiVersion: v1\n' +
    'kind: ConfigMap\n' +
    'metadata: {name: function-input}\n' +
    'data:\n' +
    '  lb-provider: aws-nlb\n';
  const list =
    `apiVersion: config.kubernetes.io/v1\n` +
    `kind: ResourceList\n` +
    `items: []\n` +
    `functionConfig:\n` +
    `${configMap.replace(/^/gm, '  ')}`;
  const krm = runCli([], list);
  t.is(krm.status, 2);
  t.is(krm.stdout, '');
  t.regex(
    krm.stderr,
    new RegExp(
      String.raw`lb-provider: got "aws-nlb"; expected one of aws-nlb-ip, aws-alb-ip, gke-neg, ` +
        String.raw`azure-appgw, generic-lb, in-cluster`,
    ),
  );
});
