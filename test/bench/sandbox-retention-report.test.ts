/** The sandbox's long-run figures on docs/benchmarks.md: RSS at the half and the end, and each check as it came out. */
import { halfAndEnd, sandboxRetentionSection, type SandboxRetentionResults } from '../../bench/sandbox-retention-report.ts';

const run = (over: Partial<SandboxRetentionResults> = {}): SandboxRetentionResults => ({
  machine: { cpu: 'cpu', cores: 2, memoryGiB: 8, node: 'v24', platform: 'linux x64', date: '2026-11-28' },
  messages: 1_000_000,
  batch: 500,
  seconds: 12,
  rss: Array.from({ length: 10 }, (_, i) => ({ messages: (i + 1) * 100_000, mb: 300 + i * 10 })),
  replay: { replayed: true, sameAnswer: true },
  duplicatesDetected: 500,
  ledger: { pages: 50, rows: 50_000, retained: 50_000, messages: 1_000_500, evicted: 950_500 },
  checks: true,
  ...over,
});

test('RSS is read at the half and at the end of the run, as the issue bounds it (≤ 1.2×)', () => {
  expect(halfAndEnd(run())).toEqual({ half: 340, end: 390, ratio: 1.15 });
  expect(sandboxRetentionSection(run())).toContain('| RSS at 500,000 → 1,000,000 messages | 340 → 390 MB (1.15×) |');
});

test('a failed check shows as failed, not as a pass', () => {
  const lines = sandboxRetentionSection(run({ replay: { replayed: true, sameAnswer: false }, checks: false }));
  expect(lines).toContain('| replay of the first batch inside the window | replayed, with a DIFFERENT answer |');
  expect(sandboxRetentionSection(run({ replay: { replayed: false, sameAnswer: false } }))).toContain('| replay of the first batch inside the window | NOT replayed |');
  expect(lines).toContain('| every check holds | NO |');
});

test('a run with no sample at its half has no RSS row rather than a wrong one', () => {
  expect(halfAndEnd(run({ rss: [{ messages: 1_000_000, mb: 400 }] }))).toBeNull();
  expect(sandboxRetentionSection(run({ rss: [] })).some((line) => line.startsWith('| RSS'))).toBe(false);
});
