/**
 * Issue #16: on a workload-dense stream (bookinfo repeated in many namespaces,
 * scripts/gen-dense.mjs) each copy is transformed as if it were alone: the indexes that replaced
 * the scans over every Service and Namespace find a workload's own namespace's objects, and nothing
 * of the others. So the output of N copies is the N outputs of one copy each, joined, and every
 * change of every copy is there. Also with more than 256 KB to parse (V8 then optimizes,
 * fn/stream/tiering.ts).
 */
import test from 'ava';
import { denseCopy, denseStream } from '../../scripts/gen-dense.mjs';
import { transform } from '../../fn/engine/transform.ts';

for (const copies of [20, 100]) {
  test(`bookinfo ×${copies}: the stream's output is each copy's own output, joined`, (t) => {
    const whole = transform(Buffer.from(denseStream(copies)));
    const alone = Array.from({ length: copies }, (_, i) => transform(Buffer.from(denseCopy(i))));
    t.is(whole.output, alone.map((r) => r.output).join('---\n'));
    t.is(
      whole.changes.length,
      alone.reduce((n, r) => n + r.changes.length, 0),
    );
    // Each Deployment of each copy: its Service in front, the Namespace's injection seen.
    t.true(
      alone.every((r) => r.changes.length === alone[0]!.changes.length && r.changes.length >= 6),
    );
    t.true(whole.changes.some((c) => c.path.join('.').includes('preStop')));
  });
}
