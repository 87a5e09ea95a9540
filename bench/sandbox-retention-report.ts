/**
 * bench/results-sandbox-retention.json (`npm run bench:sandbox-retention -- --write`) on
 * docs/benchmarks.md: the sandbox's RSS over a long run at its default retention, and the checks that
 * eviction keeps what it must (a replay inside the window, duplicate counts, the ledger's totals).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Machine } from './results.ts';

export const SANDBOX_RETENTION_RESULTS = 'bench/results-sandbox-retention.json';

export interface SandboxRetentionResults {
  machine: Machine;
  messages: number;
  batch: number;
  seconds: number;
  /** The child's RSS (MB) after each 100,000 messages. */
  rss: { messages: number; mb: number }[];
  replay: { replayed: boolean; sameAnswer: boolean };
  /** A resend of the first batch without a key: the duplicates the summary counts (the batch's size expected). */
  duplicatesDetected: number;
  ledger: { pages: number; rows: number; retained: number; messages: number; evicted: number };
  checks: boolean;
}

export function readSandboxRetention(root: string): SandboxRetentionResults | null {
  const file = join(root, SANDBOX_RETENTION_RESULTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SandboxRetentionResults) : null;
}

const count = (n: number) => n.toLocaleString('en');

/** RSS at the half and at the end of the run, and their ratio (the bound: at most 1.2×). */
export function halfAndEnd(r: SandboxRetentionResults): { half: number; end: number; ratio: number } | null {
  const at = (messages: number) => r.rss.find((s) => s.messages === Math.floor(messages / 100_000) * 100_000)?.mb;
  const half = at(r.messages / 2);
  const end = at(r.messages);
  return half === undefined || end === undefined ? null : { half, end, ratio: Math.round((end / half) * 100) / 100 };
}

export function sandboxRetentionSection(r: SandboxRetentionResults): string[] {
  const flat = halfAndEnd(r);
  return [
    '## The sandbox over a long run',
    '',
    `\`npm run bench:sandbox-retention\`: ${count(r.messages)} messages in batches of ${r.batch}, each batch under its own`,
    'Idempotency-Key, into one sandbox child process at its default retention (see docs/sandbox.md, "Memory").',
    `${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node}, ${r.machine.date}; ${Math.round(r.seconds)} s.`,
    '',
    '| figure | value |',
    '|---|---:|',
    ...(flat ? [`| RSS at ${count(r.messages / 2)} → ${count(r.messages)} messages | ${flat.half} → ${flat.end} MB (${flat.ratio.toFixed(2)}×) |`] : []),
    `| replay of the first batch inside the window | ${!r.replay.replayed ? 'NOT replayed' : r.replay.sameAnswer ? 'replayed, same answer' : 'replayed, with a DIFFERENT answer'} |`,
    `| resend of the first batch without a key: duplicates counted | ${count(r.duplicatesDetected)} (of ${r.batch}) |`,
    `| ledger read in ${count(r.ledger.pages)} pages: rows / retained | ${count(r.ledger.rows)} / ${count(r.ledger.retained)} |`,
    `| ledger totals: messages / evicted | ${count(r.ledger.messages)} / ${count(r.ledger.evicted)} |`,
    `| every check holds | ${r.checks ? 'yes' : 'NO'} |`,
    '',
  ];
}
