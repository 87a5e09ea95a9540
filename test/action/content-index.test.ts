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
});
