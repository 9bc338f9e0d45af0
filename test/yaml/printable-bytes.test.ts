/**
 * fn/yaml/printableInput.ts firstRefusedByte: the input's bytes are searched 64 KB at a time by a
 * regular expression (a JavaScript loop over every byte was a third of a 4.7 MB run at the
 * launcher's baseline tier). It must find what a loop over the bytes finds, go-yaml's printable
 * set byte for byte, wherever the character falls: inside a chunk, on the last bytes of one, or
 * across two. Inputs: argo-cd's render (1.8 MB, 29 chunks) with characters put at chunk edges, and
 * random text in UTF-8.
 */
import test from 'ava';
import fc from 'fast-check';
import { firstRefusedByte } from '../../fn/yaml/printableInput.ts';
import { corpus } from '../helpers/fixtures.ts';
import { propertyParameters } from '../helpers/reliability-runs.ts';

/**
 * The loop the search replaced, as it was (a C0 control but tab, line feed and a carriage return
 * before a line feed; DEL; a C1 control but NEL; U+FFFE and U+FFFF), kept here as the reference.
 */
function byteLoop(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x20 && b < 0x7f) continue;
    if (b < 0x20) {
      if (b !== 0x09 && b !== 0x0a && (b !== 0x0d || bytes[i + 1] !== 0x0a)) return i;
    } else if (b === 0x7f) return i;
    else if (b === 0xc2) {
      const next = bytes[i + 1]!;
      if (next >= 0x80 && next <= 0x9f && next !== 0x85) return i;
    } else if (
      b === 0xef &&
      bytes[i + 1] === 0xbf &&
      (bytes[i + 2] === 0xbe || bytes[i + 2] === 0xbf)
    )
      return i;
  }
  return -1;
}

const CHUNK = 64 * 1024;
const ARGO = Buffer.from(corpus('argo-cd.yaml'), 'utf8');

/** argo-cd's bytes with `inserted` (UTF-8) put in at `at`. */
function withBytes(at: number, inserted: string): Buffer {
  return Buffer.concat([ARGO.subarray(0, at), Buffer.from(inserted, 'utf8'), ARGO.subarray(at)]);
}

test('a real render holds none, and the search says so', (t) => {
  t.true(ARGO.length > 20 * CHUNK);
  t.is(byteLoop(ARGO), -1);
  t.is(firstRefusedByte(ARGO), -1);
});

test('a refused character at or around every chunk edge is found where the loop finds it', (t) => {
  const characters = ['\u0000', '\u001b', '\u007f', '\u0090', '\u009f', '\ufffe', '\uffff', '\r'];
  const allowed = ['\u0085', '\r\n', '\t', '\u00a0', '\ufffd'];
  let checked = 0;
  for (const edge of [CHUNK, 2 * CHUNK, 17 * CHUNK])
    for (let at = edge - 3; at <= edge + 2; at++)
      for (const character of [...characters, ...allowed]) {
        const bytes = withBytes(at, character);
        const expected = byteLoop(bytes);
        t.is(firstRefusedByte(bytes), expected, `${JSON.stringify(character)} at ${at}`);
        t.is(expected, characters.includes(character) ? at : -1);
        checked++;
      }
  t.is(checked, 3 * 6 * 13);
});

test('a carriage return alone as the very last byte is refused; before a line feed it is not', (t) => {
  t.is(firstRefusedByte(Buffer.concat([ARGO, Buffer.from('\r')])), ARGO.length);
  t.is(firstRefusedByte(Buffer.concat([ARGO, Buffer.from('\r\n')])), -1);
  const cut = ARGO.subarray(0, CHUNK + 1);
  t.is(firstRefusedByte(Buffer.concat([cut, Buffer.from('\r')])), CHUNK + 1);
});

test('for any text in UTF-8, across chunk edges: the search finds what the loop finds', (t) => {
  const piece = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('\r', '\r\n', '\u0085', '\u009b', '\ufffe', '\u00c2', 'ï¿¾'),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: CHUNK - 8, max: CHUNK + 8 }),
      fc.array(piece, { maxLength: 6 }),
      (at, pieces) => {
        // Lone surrogates are no UTF-8: Buffer.from writes U+FFFD for them, as valid input has.
        const bytes = withBytes(at, pieces.join(''));
        return firstRefusedByte(bytes) === byteLoop(bytes);
      },
    ),
    propertyParameters(300),
  );
  t.pass();
});
