/** Line and column of offsets: moved from the previous version's line starts after a change, as found afresh. */
import * as assert from 'assert';
import { LineIndex } from '../../src/syntax/lineIndex';

suite('line index', () => {
  test('after a change, positions moved from the previous text equal those of the new text read afresh', () => {
    let x = 7;
    const random = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = (n: number) =>
      Array.from({ length: Math.floor(random() * n) }, () => 'ab\n\r é\n'[Math.floor(random() * 7)]).join('');
    for (let n = 0; n < 3000; n++) {
      const text = pick(40);
      const previous = new LineIndex(text);
      previous.point(0);
      const start = Math.floor(random() * (text.length + 1));
      const end = start + Math.floor(random() * (text.length - start + 1));
      const change = { rangeOffset: start, rangeLength: end - start, text: pick(6) };
      const next = text.slice(0, start) + change.text + text.slice(end);
      const moved = new LineIndex(next, { lines: previous, change });
      const fresh = new LineIndex(next);
      for (let at = 0; at <= next.length; at++)
        assert.deepStrictEqual(
          moved.point(at),
          fresh.point(at),
          `${JSON.stringify(text)} → ${JSON.stringify(next)} at ${at}`,
        );
    }
  });
});
