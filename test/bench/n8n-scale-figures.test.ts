/** The arithmetic of bench:n8n-scale: medians, the target ratios, and the ledger's account of a send. */
import { accountLedger, bodyOf, deliveredExactly, expectedCalls, median, medianRun, ratio, ratiosAt, recipientOf, type RunFigures, type VariantFigures } from '../../bench/n8n-scale-figures.ts';

const run = (nodeMs: number, wallMs: number, addedRssBytes: number, baseRssBytes = 700): RunFigures => ({ nodeMs, wallMs, addedRssBytes, baseRssBytes });

/** Ledger rows of a clean send of `items` messages in calls of 500. */
function rowsOf(items: number) {
  return Array.from({ length: items }, (_, n) => ({ to: recipientOf(n), body: bodyOf(n), request_id: `req_${Math.floor(n / 500)}` }));
}

test('the median is the middle run, or the mean of the two middle ones, whatever the order', () => {
  expect(median([30, 10, 20])).toBe(20);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([7])).toBe(7);
  expect(() => median([])).toThrow('median of no values');
});

test('medianRun takes each field’s median on its own, not the figures of one run', () => {
  expect(medianRun([run(1, 30, 500), run(2, 10, 100), run(3, 20, 300)])).toEqual(run(2, 20, 300));
});

test('a ratio over zero (a NoOp that took 0 ms) is null, not Infinity', () => {
  expect(ratio(3, 2)).toBe(1.5);
  expect(ratio(2, 3)).toBe(0.667);
  expect(ratio(5, 0)).toBeNull();
});

test('ratios compare by-field with Set one constant, expressions with Set with them, and each with NoOp', () => {
  const figures: VariantFigures[] = [
    { variant: 'noOp', items: 1000, runs: [], median: run(0, 100, 50) },
    { variant: 'setConstant', items: 1000, runs: [], median: run(40, 150, 100) },
    { variant: 'setExpressions', items: 1000, runs: [], median: run(800, 950, 200) },
    { variant: 'sendBatchExpressions', items: 1000, runs: [], median: run(840, 970, 210) },
    { variant: 'sendBatchByField', items: 1000, runs: [], median: run(60, 200, 150) },
    { variant: 'noOp', items: 10_000, runs: [], median: run(1, 120, 80) },
  ];
  const at = ratiosAt(1000, figures);
  expect(at.byFieldVsSetConstant).toEqual({ nodeTime: 1.5, wallTime: 1.333, addedRss: 1.5 });
  expect(at.expressionsVsSetExpressions).toEqual({ nodeTime: 1.05, wallTime: 1.021, addedRss: 1.05 });
  expect(at.overNoOp.sendBatchByField).toEqual({ wallTime: 2, addedRss: 3 });
  expect(at.overNoOp.noOp).toBeUndefined();
  // Only NoOp measured at 10,000: no comparison is made up.
  expect(ratiosAt(10_000, figures)).toEqual({ items: 10_000, overNoOp: {} });
});

test('⌈N/500⌉ calls', () => {
  expect([1, 500, 501, 1000, 100_000].map(expectedCalls)).toEqual([1, 1, 2, 2, 200]);
});

test('a clean send is every message once, in ⌈N/500⌉ calls', () => {
  const account = accountLedger(rowsOf(1001), 1001);
  expect(account).toEqual({ delivered: 1001, missing: 0, extra: 0, calls: 3 });
  expect(deliveredExactly(account, 1001)).toBe(true);
});

test('a lost message, a duplicate, a stranger, a wrong body and an extra call are each caught', () => {
  const rows = rowsOf(1000);
  const lost = rows.slice(1);
  expect(accountLedger(lost, 1000)).toMatchObject({ delivered: 999, missing: 1, extra: 0 });
  expect(deliveredExactly(accountLedger(lost, 1000), 1000)).toBe(false);

  const twice = [...rows.slice(1), { ...rows[2]!, request_id: 'req_1' }];
  expect(accountLedger(twice, 1000)).toMatchObject({ delivered: 1000, missing: 1, extra: 1 });
  expect(deliveredExactly(accountLedger(twice, 1000), 1000)).toBe(false);

  const stranger = [...rows.slice(1), { to: recipientOf(1000), body: bodyOf(1000), request_id: 'req_1' }];
  expect(accountLedger(stranger, 1000)).toMatchObject({ missing: 1, extra: 1 });

  const wrongBody = [{ ...rows[0]!, body: 'Message 7' }, ...rows.slice(1)];
  expect(accountLedger(wrongBody, 1000)).toMatchObject({ missing: 1, extra: 1 });

  const splitCall = rows.map((r, n) => (n === 999 ? { ...r, request_id: 'req_extra' } : r));
  expect(accountLedger(splitCall, 1000)).toEqual({ delivered: 1000, missing: 0, extra: 0, calls: 3 });
  expect(deliveredExactly(accountLedger(splitCall, 1000), 1000)).toBe(false);
});
