/**
 * Issue #8: the stream reader (split, pre-scan, readStream, readResourceList) under random bytes,
 * YAML-ish token soups and mangled real charts, for a fixed number of rounds (300 by default,
 * KUBE_GRACEFUL_FUZZ_ROUNDS for more, or KUBE_GRACEFUL_FUZZ_SECONDS for a time budget). Each round
 * has its own seed, printed on failure; set KUBE_GRACEFUL_FUZZ_SEED to it to replay that round
 * first.
 *
 * Every round checks: splitting reconstructs the input exactly; reading and writing back with no
 * edit gives the input back (stream and ResourceList); and nothing throws but KubeGracefulError
 * (a clean exit 2, never exit 70).
 */
import test from 'ava';
import { decodeUtf8 } from '../../fn/cli/io.ts';
import { KubeGracefulError } from '../../fn/core/errors.ts';
import {
  looksLikeResourceList,
  readResourceList,
  renderResourceList,
} from '../../fn/krm/resourceList.ts';
import { isCommentOnly, prescanKind, resourceHint } from '../../fn/document/prescan.ts';
import { splitStream } from '../../fn/stream/split.ts';
import { readStream, renderStream } from '../../fn/stream/stream.ts';
import { corpus } from '../helpers/fixtures.ts';
import { fuzzBudget, fuzzSeed, seededRandom } from '../helpers/reliability-runs.ts';

const TOKENS = [
  '---',
  '--- ',
  '...',
  '\n',
  '\n',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '  ',
  '    ',
  '\t',
  '- ',
  '-',
  ': ',
  ':',
  '? ',
  '{',
  '}',
  '[',
  ']',
  ', ',
  '#',
  '# c',
  '&a ',
  '*a',
  '!!str ',
  '!!binary ',
  '!foo ',
  '|',
  '|-',
  '>',
  '"',
  "'",
  '\\',
  '%YAML 1.1',
  '%TAG ! tag:x,2000:',
  '\uFEFF',
  'kind',
  'kind: ',
  'apiVersion',
  'apiVersion: ',
  'items',
  'items:',
  'List',
  'ResourceList',
  'config.kubernetes.io/v1',
  'Deployment',
  'Pod',
  'Job',
  'CronJob',
  'ConfigMap',
  'metadata',
  'name',
  'spec',
  'template',
  'containers',
  'functionConfig',
  'results',
  'a',
  'x',
  '1',
  '0644',
  '1:30',
  'true',
  'yes',
  'null',
  '~',
  '<<',
  '0x1F',
  '.inf',
  'é',
  '中',
  '🙂',
  '\u0000',
  '\u0085',
  '\u2028',
  '\uFFFE',
];

type Make = (random: () => number) => string | Buffer;

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/** Random bytes, mostly ASCII, decoded as the CLI decodes stdin. */
const randomBytes: Make = (random) =>
  Buffer.from(
    Array.from({ length: Math.floor(random() * 400) }, () =>
      random() < 0.8 ? 9 + Math.floor(random() * 118) : Math.floor(random() * 256),
    ),
  );

/** A soup of YAML tokens and Kubernetes words. */
const tokenSoup: Make = (random) =>
  Array.from({ length: Math.floor(random() * 120) }, () => pick(random, TOKENS)).join('');

/** A ResourceList head followed by soup: reaches readResourceList. */
const resourceListSoup: Make = (random) =>
  `apiVersion: config.kubernetes.io/v1\n` +
  `kind: ResourceList\n` +
  `${pick(random, ['items:\n', 'items: ', 'items:\n- ', ''])}${String(tokenSoup(random))}`;

const SOURCES = [
  'istio-gateway-1.30.3-nlb.yaml',
  'istio-sample-kube-bookinfo.yaml',
  'descheduler-cronjob.yaml',
  'helm4-postrender-input-istio-gateway-1.30.3-nlb.yaml',
].map((name) => corpus(name));

/**
 * A real chart with random edits: lines dropped, duplicated, swapped, re-indented; tokens spliced
 * in.
 */
const mangledChart: Make = (random) => {
  const lines = pick(random, SOURCES).split('\n');
  for (let edits = Math.floor(random() * 8) + 1; edits > 0; edits--) {
    const at = Math.floor(random() * lines.length);
    const roll = random();
    if (roll < 0.2) lines.splice(at, 1);
    else if (roll < 0.4) lines.splice(at, 0, lines[at] ?? '');
    else if (roll < 0.55)
      [lines[at], lines[(at + 1) % lines.length]] = [lines[(at + 1) % lines.length]!, lines[at]!];
    else if (roll < 0.7) lines[at] = `${pick(random, ['', ' ', '  ', '\t'])}${lines[at] ?? ''}`;
    else {
      const line = lines[at] ?? '';
      const col = Math.floor(random() * (line.length + 1));
      lines[at] = line.slice(0, col) + pick(random, TOKENS) + line.slice(col);
    }
  }
  return lines.join(pick(random, ['\n', '\n', '\r\n']));
};

const MAKERS: ReadonlyArray<[string, Make]> = [
  ['random bytes', randomBytes],
  ['token soup', tokenSoup],
  ['ResourceList soup', resourceListSoup],
  ['mangled chart', mangledChart],
];

/** Runs one input through the reader; throws an Error describing any broken promise. */
function check(text: string): void {
  const { bom, segments } = splitStream(text);
  if (bom + segments.map((s) => s.text).join('') !== text)
    throw new Error('splitStream does not reconstruct the input');
  let line = 1;
  let offset = 0;
  for (const segment of segments) {
    if (segment.offset !== offset || segment.line !== line || segment.text === '')
      throw new Error(
        `segment ${segment.index} has offset ${segment.offset}/line ${segment.line}, ` +
          `expected ${offset}/${line}`,
      );
    offset += segment.text.length;
    line += segment.text.split('\n').length - 1;
    prescanKind(segment.text);
    isCommentOnly(segment.text);
    resourceHint(segment.text);
  }
  for (const parseAll of [false, true]) {
    try {
      const read = readStream(text, { extraKinds: [], parseAll });
      if (renderStream(read) !== text)
        throw new Error(`reading and writing back (parseAll ${parseAll}) changed the stream`);
    } catch (error) {
      if (!(error instanceof KubeGracefulError)) throw error;
      if (error.code === 'E_INTERNAL')
        throw new Error(`E_INTERNAL from readStream: ${error.message}`);
    }
  }
  if (looksLikeResourceList(text)) {
    try {
      const list = readResourceList(text);
      if (renderResourceList(list, []) !== text)
        throw new Error('reading and writing back a ResourceList changed it');
    } catch (error) {
      if (!(error instanceof KubeGracefulError)) throw error;
      if (error.code === 'E_INTERNAL')
        throw new Error(`E_INTERNAL from readResourceList: ${error.message}`);
    }
  }
}

test('the stream reader under random input: lossless, and only KubeGracefulError', (t) => {
  const budget = fuzzBudget(300);
  const first = fuzzSeed();
  // Only a time budget asked for by hand reads the clock: by default the rounds are counted.
  const deadline = 'milliseconds' in budget ? Date.now() + budget.milliseconds : undefined;
  const more = (round: number) =>
    deadline === undefined ? round < (budget as { rounds: number }).rounds : Date.now() < deadline;
  const counts = new Map<string, number>();
  let round = 0;
  for (; more(round); round++) {
    const seed = (first + round) | 0;
    const random = seededRandom(seed);
    const [kind, make] = MAKERS[round % MAKERS.length]!;
    const made = make(random);
    let text: string;
    if (typeof made === 'string') {
      text = made;
    } else {
      try {
        text = decodeUtf8(made, 'stdin');
      } catch (error) {
        if (error instanceof KubeGracefulError && error.code === 'E_INPUT') {
          counts.set('invalid UTF-8', (counts.get('invalid UTF-8') ?? 0) + 1);
          continue;
        }
        throw error;
      }
    }
    try {
      check(text);
    } catch (error) {
      t.fail(
        `${kind}, round seed ${seed} (replay: KUBE_GRACEFUL_FUZZ_SEED=${seed}): ` +
          `${error instanceof Error ? error.stack : String(error)}\n` +
          `input: ${JSON.stringify(text.slice(0, 2000))}`,
      );
      return;
    }
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  t.log(
    `first seed ${first} (KUBE_GRACEFUL_FUZZ_SEED), ${round} rounds: ` +
      [...counts].map(([k, n]) => `${n} ${k}`).join(', '),
  );
  t.true(round > 0);
});
