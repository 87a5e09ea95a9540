/** What the action-memory bench reads and computes: peak RSS from time -v, annotations, the ledger tally, the ratios. */
import { errorAnnotations, peakRssFromTimeReport } from '../../bench/action-process.ts';
import { dryRatios } from '../../bench/action-memory-results.ts';
import type { DryRow } from '../../bench/action-memory-results.ts';
import { tally } from '../../bench/ledger-tally.ts';

test('peak RSS is read from GNU time -v in kilobytes, as bytes', () => {
  const report = '\tCommand being timed: "node dist/index.js"\n\tMaximum resident set size (kbytes): 413592\n\tAverage resident set size (kbytes): 0\n';
  expect(peakRssFromTimeReport(report)).toBe(413592 * 1024);
  expect(peakRssFromTimeReport('Command terminated by signal 9')).toBeNaN();
});

test('::error commands give their file, line and message; other lines are not annotations', () => {
  const log = [
    '::add-mask::secret',
    '::error title=Messaging Service,file=messages.csv,line=11260::Message refused: validation_failed: to must be an e-mail address.',
    'Sending 11022 message(s)…',
    '::error title=Messaging Service::1 message(s) failed',
    '::error::contacts.json is 20000000 bytes, over the limit',
  ].join('\n');
  expect(errorAnnotations(log)).toEqual([
    { file: 'messages.csv', line: 11260, message: 'Message refused: validation_failed: to must be an e-mail address.' },
    { file: undefined, line: undefined, message: '1 message(s) failed' },
    { file: undefined, line: undefined, message: 'contacts.json is 20000000 bytes, over the limit' },
  ]);
});

test('the tally counts each expected row once, a missing one as lost, a repeat as a duplicate, a refused one that arrives as a stray', () => {
  expect(tally([0, 1, 2, 3], 4)).toEqual({ delivered: 4, lost: 0, duplicates: 0, strays: 0 });
  expect(tally([0, 2, 2, 2, 3], 4)).toEqual({ delivered: 3, lost: 1, duplicates: 2, strays: 0 });
  expect(tally([0, 1, 2], 4, new Set([3]))).toEqual({ delivered: 3, lost: 0, duplicates: 0, strays: 0 });
  expect(tally([0, 1, 2, 3, -1, 9], 4, new Set([3]))).toEqual({ delivered: 3, lost: 0, duplicates: 0, strays: 3 });
});

const row = (mode: DryRow['mode'], format: string, targetMB: number, peakMB: number, code = 0): DryRow => ({ mode, format, targetMB, fileBytes: targetMB * 1e6, rows: 1, code, peakRss: peakMB * 1e6, seconds: 1 });

test('ratios: 200 MB peak ÷ 50 MB peak and 50 MB peak ÷ file, per mode and format', () => {
  const ratios = dryRatios([row('batch', 'csv', 10, 90), row('batch', 'csv', 50, 120), row('batch', 'csv', 200, 150), row('sync-contacts', 'jsonl', 50, 600)]);
  expect(ratios).toEqual([
    { mode: 'batch', format: 'csv', growth200over50: 1.25, rssOverFile50: 2.4 },
    { mode: 'sync-contacts', format: 'jsonl', growth200over50: null, rssOverFile50: 12 },
  ]);
});

test('a run that did not complete gives no ratio', () => {
  const [r] = dryRatios([row('batch', 'csv', 50, 700), row('batch', 'csv', 200, 2500, 134)]);
  expect(r!.growth200over50).toBeNull();
  expect(r!.rssOverFile50).toBe(14);
});
