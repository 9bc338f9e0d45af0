/**
 * Issue #16 (peak memory): the stream is read one workload document at a time after the context
 * documents (Services, Namespaces…), so the errors of an input with several problems are found in
 * another order than when every document was parsed first. The one reported is the first problem
 * in document order, whatever its kind (a document that does not parse, one that is not a mapping,
 * a workload field of the wrong type), with the message it has when it is the only problem.
 * Through the real CLI, on the Istio bookinfo sample (test/fixtures/corpus).
 */
import test from 'ava';
import { runCli } from '../helpers/cli.ts';
import { corpus } from '../helpers/fixtures.ts';

const bookinfo = corpus('istio-sample-kube-bookinfo.yaml');
/** The sample's documents, each from its `---` line: joined, they are the file. */
const documents = bookinfo.split(/^(?=---\r?\n)/m);
const kindOf = (doc: string) => /^kind: (\w+)/m.exec(doc)?.[1];

/** Each kind of problem, made in one document of the sample. */
const breaks = {
  /** A Service that does not parse (a flow sequence left open). */
  serviceParse: (doc: string) =>
    doc.replace(/^kind: Service\n/m, 'kind: Service\nextra: [unclosed\n'),
  /** A Service that is not a mapping. */
  serviceNotMapping: (doc: string) =>
    doc.replace(/^apiVersion: v1\nkind: Service\n[\s\S]*$/m, '- not\n- a mapping\n'),
  /** A Deployment that does not parse (an unclosed quote). */
  deploymentParse: (doc: string) => doc.replace(/^ {2}name: (.*)$/m, '  name: "$1'),
  /** A Deployment whose container `command` is a string: the API server refuses it, and so do
   * we. */
  deploymentShape: (doc: string) =>
    doc.replace(/^ {8}imagePullPolicy: IfNotPresent$/m, '        command: run'),
};

/** Returns the sample with `broken` applied to the `nth` document of kind `kind` (0-based). */
function withBroken(
  input: string[],
  kind: string,
  nth: number,
  broken: (doc: string) => string,
): string[] {
  const at = input.map((doc, i) => (kindOf(doc) === kind ? i : -1)).filter((i) => i >= 0)[nth]!;
  const changed = broken(input[at]!);
  if (changed === input[at]) throw new Error(`the ${kind} break did not apply`);
  return input.map((doc, i) => (i === at ? changed : doc));
}

/** The CLI's answer on the documents up to and including the first that differs from the sample. */
function aloneUpTo(input: string[]): string {
  const first = input.findIndex((doc, i) => doc !== documents[i]);
  return runCli([], input.slice(0, first + 1).join('')).stderr;
}

const cases: Array<{ name: string; input: string[]; code: string; document: RegExp }> = [
  {
    name: 'a workload of the wrong shape before a Service that does not parse: the workload',
    input: withBroken(
      withBroken(documents, 'Deployment', 0, breaks.deploymentShape),
      'Service',
      3,
      breaks.serviceParse,
    ),
    code: 'E_INPUT',
    document: /document 3 \(Deployment details-v1\)/,
  },
  {
    name: 'a Service that does not parse before a workload of the wrong shape: the Service',
    input: withBroken(
      withBroken(documents, 'Deployment', 3, breaks.deploymentShape),
      'Service',
      1,
      breaks.serviceParse,
    ),
    code: 'E_PARSE',
    document: /document 4 \(Service ratings\)/,
  },
  {
    name: 'a workload that does not parse before a Service that does not parse: the workload',
    input: withBroken(
      withBroken(documents, 'Deployment', 1, breaks.deploymentParse),
      'Service',
      3,
      breaks.serviceParse,
    ),
    code: 'E_PARSE',
    document: /document 6 \(Deployment\b/,
  },
  {
    name: 'a Service that does not parse before a workload that does not parse: the Service',
    input: withBroken(
      withBroken(documents, 'Deployment', 2, breaks.deploymentParse),
      'Service',
      0,
      breaks.serviceParse,
    ),
    code: 'E_PARSE',
    document: /document 1 \(Service details\)/,
  },
  {
    name: 'a workload of the wrong shape before a document that is not a mapping: the workload',
    input: withBroken(
      withBroken(documents, 'Deployment', 0, breaks.deploymentShape),
      'Service',
      2,
      breaks.serviceNotMapping,
    ),
    code: 'E_INPUT',
    document: /document 3 \(Deployment details-v1\)/,
  },
  {
    name: 'a document that is not a mapping before a workload of the wrong shape: that document',
    input: withBroken(
      withBroken(documents, 'Deployment', 2, breaks.deploymentShape),
      'Service',
      0,
      breaks.serviceNotMapping,
    ),
    code: 'E_NOT_MAPPING',
    document: /document 1\b/,
  },
];

for (const c of cases) {
  test(`error order: ${c.name}`, (t) => {
    const run = runCli([], c.input.join(''));
    t.is(run.status, 2, run.stderr);
    t.is(run.stdout, '', 'nothing on stdout');
    t.regex(run.stderr, new RegExp(`^kube-graceful: ${c.code}:`));
    t.regex(run.stderr, c.document);
    // The same message as when the stream stops at that problem: nothing after it changes it.
    t.is(run.stderr, aloneUpTo(c.input));
  });
}
