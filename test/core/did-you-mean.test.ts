/** "Did you mean …": the closest name within two edits, never a guess (issue #28). */
import test from 'ava';
import { closest, didYouMean, editDistance } from '../../fn/core/didYouMean.ts';

const COMMANDS = ['explain', 'check', 'patches', 'version', 'completion', 'help'];

test('edit distance counts insertions, deletions, substitutions and swapped neighbours', (t) => {
  t.is(editDistance('check', 'check'), 0);
  t.is(editDistance('chek', 'check'), 1);
  t.is(editDistance('chekc', 'check'), 1);
  t.is(editDistance('', 'abc'), 3);
  t.is(editDistance('kitten', 'sitting'), 3);
});

test('a typo of a command suggests it; a word far from every command does not', (t) => {
  t.is(closest('chek', COMMANDS), 'check');
  t.is(closest('hlep', COMMANDS), 'help');
  t.is(closest('verison', COMMANDS), 'version');
  t.is(closest('Explain', COMMANDS), 'explain');
  t.is(closest('patch', COMMANDS), 'patches');
  t.is(closest('deploy', COMMANDS), undefined);
  t.is(closest('ab', ['cd', 'ef']), undefined, 'two edits of two letters is a guess');
  t.is(didYouMean('maxRequestSecond', ['maxRequestSeconds']), ' (did you mean maxRequestSeconds?)');
  t.is(didYouMean('zzz', ['maxRequestSeconds']), '');
});
