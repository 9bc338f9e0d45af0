/**
 * Sources as data (fn/core/source.ts): the decisions test a source's kind, and these words are
 * made in one place. The goldens hold the words as every output prints them; these tests hold
 * which kind prints which words.
 */
import test from 'ava';
import { originText, sourceLine, sourceText } from '../../fn/core/source.ts';
import type { Source } from '../../fn/core/source.ts';
import { loadConfig } from '../../fn/config/load.ts';
import { originOf, settingSource } from '../../fn/config/schema.ts';

test('a setting: its origin, or the default with the flag that changes it', (t) => {
  const config = loadConfig(undefined, { 'max-request': '30' });
  t.deepEqual(originOf(config, 'timing.maxRequestSeconds'), { kind: 'flag', flag: 'max-request' });
  t.deepEqual(originOf(config, 'timing.bufferSeconds'), { kind: 'default' });
  t.is(
    sourceText(settingSource(config, 'timing.maxRequestSeconds', 'max-request')),
    'flag --max-request',
  );
  t.is(
    sourceText(settingSource(config, 'timing.bufferSeconds', 'buffer')),
    'default; set --buffer to change',
  );
  t.is(
    originText({ kind: 'document', document: 'functionConfig', key: 'buffer' }),
    'functionConfig (buffer)',
  );
  t.is(
    originText({ kind: 'annotation', annotation: 'kube-graceful.dev/buffer' }),
    'annotation kube-graceful.dev/buffer',
  );
});

test('a load balancer names a few others in front, then how many more', (t) => {
  const source: Source = {
    kind: 'load-balancer',
    evidence: 'Service a: AWS NLB',
    alsoInFront: ['b: 10 s', 'c: 10 s', 'd: 10 s', 'e: 10 s', 'f: 10 s'],
  };
  t.is(
    sourceText(source),
    'Service a: AWS NLB; also in front: b: 10 s; c: 10 s; d: 10 s; and 2 more',
  );
  t.is(sourceLine('W', { kind: 'load-balancer', evidence: 'Service a' }), 'W: Service a');
});

test('the Service istiod generates names its Gateway and its own symbol, printed once', (t) => {
  const source: Source = {
    kind: 'load-balancer',
    evidence: 'Service g-istio: NLB',
    generatedFor: 'Gateway g',
  };
  t.is(
    sourceLine('W', source),
    'W: Service g-istio: NLB (the Service istiod generates for Gateway g)',
  );
});

test('an assumed load balancer says why it is assumed; a derived value wraps its input', (t) => {
  t.is(
    sourceText({ kind: 'assumed-load-balancer', label: 'In-cluster' }),
    'In-cluster (default: no Service in the stream selects these pods)',
  );
  const flag: Source = {
    kind: 'setting',
    origin: { kind: 'flag', flag: 'lb-provider' },
    flag: 'lb-provider',
  };
  t.is(
    sourceText({ kind: 'assumed-load-balancer', label: 'AWS NLB', origin: flag }),
    'AWS NLB (flag --lb-provider)',
  );
  t.is(
    sourceText({ kind: 'derived', how: 'H 5 s + W (', from: flag, after: ')' }),
    'H 5 s + W (flag --lb-provider)',
  );
  t.is(
    sourceText({ kind: 'target-group', isDefault: true }),
    'AWS default deregistration delay (no target-group attribute set)',
  );
});
