/**
 * TextMemo (fn/core/textMemo.ts) keeps what a pure function made of a text, within its bounds:
 * the proxy.istio.io/config reader and the local edit check read through it (issue #16), so a
 * kept result must be the one a fresh call gives, also once the table has started over.
 */
import test from 'ava';
import { TextMemo } from '../../fn/core/textMemo.ts';

test('a text is made once and its result kept', (t) => {
  const made: string[] = [];
  const memo = new TextMemo<{ length: number }>(10, 100);
  const make = (text: string) => {
    made.push(text);
    return { length: text.length };
  };
  const first = memo.get('drainDuration: 5s\n', make);
  t.is(memo.get('drainDuration: 5s\n', make), first);
  t.deepEqual(memo.get('', make), { length: 0 });
  t.is(memo.get('', make).length, 0);
  t.deepEqual(made, ['drainDuration: 5s\n', '']);
});

test('undefined is kept like any other result', (t) => {
  let calls = 0;
  const memo = new TextMemo<string | undefined>(10, 100);
  const refuse = () => {
    calls++;
    return undefined;
  };
  t.is(memo.get('a: !!str 5', refuse), undefined);
  t.is(memo.get('a: !!str 5', refuse), undefined);
  t.is(calls, 1);
});

test('a text longer than the bound is made every time', (t) => {
  let calls = 0;
  const memo = new TextMemo<number>(10, 4);
  const make = (text: string) => (calls++, text.length);
  t.is(memo.get('12345', make), 5);
  t.is(memo.get('12345', make), 5);
  t.is(memo.get('1234', make), 4);
  t.is(memo.get('1234', make), 4);
  t.is(calls, 3);
});

test('past its size the table starts over and still gives each text its own result', (t) => {
  const memo = new TextMemo<string>(8, 100);
  const make = (text: string) => text.toUpperCase();
  for (let round = 0; round < 3; round++)
    for (let i = 0; i < 50; i++) {
      const text = `key-${i}`;
      if (memo.get(text, make) !== `KEY-${i}`) t.fail(text);
    }
  t.is(memo.get('key-3', make), 'KEY-3');
});
