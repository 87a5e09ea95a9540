import { hash } from 'node:crypto';
import { canonicalJson } from '../../src/index.ts';
import { ContentIndex } from '../../action/src/content-index.ts';
import { seededRandom } from '../support/seeded-random.ts';

/** The index's contract on lists, with strings for keys: what the compact index must agree with. */
function modelDiff(previous: Record<string, unknown>[], current: Record<string, unknown>[]) {
  const key = (v: Record<string, unknown>) => JSON.stringify(Object.entries(v).sort());
  const left = new Map<string, number>();
  for (const v of previous) left.set(key(v), (left.get(key(v)) ?? 0) + 1);
  const taken = current.map((v) => {
    const n = left.get(key(v)) ?? 0;
    if (n) left.set(key(v), n - 1);
    return n > 0;
  });
  const skip = new Map<string, number>();
  for (const v of previous) skip.set(key(v), (skip.get(key(v)) ?? 0) + 1);
  for (const [k, n] of left) skip.set(k, skip.get(k)! - n);
  const unmatched = previous.map((v) => {
    const n = skip.get(key(v))!;
    skip.set(key(v), n - 1);
    return n <= 0;
  });
  return { taken, unmatched };
}

describe('ContentIndex (sorted digests)', () => {
  test.each([1, 2, 3])('agrees with a multiset of rows on random files full of duplicates (seed %i)', (seed) => {
    const random = seededRandom(seed);
    // Few distinct contents, so most rows have twins and a content's rows are matched in part.
    const row = () => ({ email: `u${Math.floor(random() * 40)}@x.io`, city: random() < 0.5 ? 'Oslo' : 'Lyon' });
    const previous = Array.from({ length: 3000 }, row);
    const current = Array.from({ length: 2500 }, row);
    const index = new ContentIndex();
    for (const v of previous) index.add(v);
    const model = modelDiff(previous, current);
    expect(current.map((v) => index.take(v))).toEqual(model.taken);
    expect(index.anyUnmatched).toBe(model.unmatched.includes(true));
    expect(previous.map((v) => index.unmatched(v))).toEqual(model.unmatched);
  });

  test('key order does not matter; a one-character change does', () => {
    const index = new ContentIndex();
    index.add({ email: 'a@x.io', city: 'Oslo' });
    expect(index.take({ city: 'Oslo', email: 'a@x.io' })).toBe(true);
    expect(index.take({ city: 'Oslo', email: 'a@x.io' })).toBe(false);
    expect(index.take({ city: 'Oslp', email: 'a@x.io' })).toBe(false);
    expect(index.anyUnmatched).toBe(false);
  });

  test('an empty index matches nothing', () => {
    const empty = new ContentIndex();
    expect(empty.take({ email: 'a@x.io' })).toBe(false);
    expect(empty.anyUnmatched).toBe(false);
  });

  test('a second read of the previous version that differs from the first is an error, not a silent answer', () => {
    const index = new ContentIndex();
    index.add({ email: 'a@x.io' });
    index.add({ email: 'b@x.io' });
    expect(index.take({ email: 'a@x.io' })).toBe(true);
    expect(index.unmatched({ email: 'a@x.io' })).toBe(false);
    expect(() => index.unmatched({ email: 'c@x.io' })).toThrow(/read differently/);
  });

  test('rows whose digests share their first 32 bits are still told apart and found', () => {
    // 300,000 distinct rows hold about ten such pairs (about n² / 2^33): found here the way the index digests.
    const rows = Array.from({ length: 300_000 }, (_, i) => ({ email: `u${i}@x.io` }));
    const firstWord = (v: Record<string, unknown>) => hash('sha256', canonicalJson(v), 'buffer').readUInt32LE(0);
    const seen = new Map<number, number>();
    const twins: number[] = [];
    rows.forEach((v, i) => {
      const w = firstWord(v);
      if (seen.has(w)) twins.push(seen.get(w)!, i);
      else seen.set(w, i);
    });
    expect(twins.length).toBeGreaterThan(0);
    const index = new ContentIndex();
    for (const v of rows) index.add(v);
    // Each of a pair is its own content: taking one twice leaves the other to be taken.
    for (const i of twins) expect([index.take(rows[i]!), index.take(rows[i]!)]).toEqual([true, false]);
    expect(index.take({ email: 'nobody@x.io' })).toBe(false);
    const back = rows.map((v) => index.unmatched(v));
    expect(twins.map((i) => back[i])).toEqual(twins.map(() => false));
    expect(back.filter(Boolean)).toHaveLength(rows.length - twins.length);
  });
});
