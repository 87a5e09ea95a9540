/**
 * A GitHub matrix: four legs of one job run the bundled action at the same time with one API key and a
 * low ceiling, each with its own messages. Same GITHUB_RUN_ID and GITHUB_JOB (matrix legs share both),
 * different content, so each leg's idempotency keys differ by the content hash. The processes share no
 * memory: each action's limiter sees only the server's headers. 0 lost, 0 duplicated; the 429s are printed.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { existsSync } from 'node:fs';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { DIST, leaks, runStep } from './runner.ts';

const KEY = 'sk_test_demo_ok';
const LEGS = 4;
const PER_LEG = 1_200; // three calls of ≤500 each
const RATE_LIMIT = 2; // calls per 1 s window, for the key: 12 calls need 6 windows at the least
let sandbox: Sandbox;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
  sandbox = await start({ port: 0, config: { window_seconds: 1, accounts: [{ id: 'acc_demo', credits: 1e9, rate_limit: RATE_LIMIT }] } });
});
afterAll(() => sandbox.close());

function legMessages(leg: number): { channel: string; to: string; body: string }[] {
  return Array.from({ length: PER_LEG }, (_, i) => ({ channel: 'email', to: `leg${leg}.u${i}@example.com`, body: `leg ${leg} message ${i}` }));
}

test('4 concurrent matrix legs on one key: every message once, none lost; 429 count reported', async () => {
  const legs = await Promise.all(
    Array.from({ length: LEGS }, (_, leg) =>
      runStep({ 'api-key': KEY, 'base-url': sandbox.url, mode: 'batch', file: 'messages.json', 'max-rate-limit-wait': '120' }, { event: RELEASE_EVENT, files: { 'messages.json': JSON.stringify(legMessages(leg)) } }),
    ),
  );
  for (const [leg, r] of legs.entries()) {
    expect({ leg, code: r.code, stderr: r.stderr }).toEqual({ leg, code: 0, stderr: '' });
    expect(r.outputs.sent).toBe(String(PER_LEG));
    expect(leaks(r, KEY)).toEqual([]);
  }
  // Each leg derived its own keys (same run and job, different content).
  expect(new Set(legs.map((r) => r.outputs['idempotency-key'])).size).toBe(LEGS);

  const ledger = ledgerRows(sandbox);
  const summary = sandbox.control.summary();
  // 0 lost: every message of every leg is in the ledger exactly once; 0 duplicated.
  const bodies = new Map<string, number>();
  for (const m of ledger.messages) bodies.set(m.body, (bodies.get(m.body) ?? 0) + 1);
  const expected = Array.from({ length: LEGS }, (_, leg) => legMessages(leg).map((m) => m.body)).flat();
  expect(expected.filter((b) => bodies.get(b) !== 1)).toEqual([]);
  expect(ledger.messages).toHaveLength(LEGS * PER_LEG);
  expect(summary.duplicates_detected).toBe(0);

  // Batch mode makes only batch calls: every request beyond the calls that sent is a 429.
  const calls = Object.keys(summary.messages_by_idempotency_key).length;
  expect(calls).toBe(LEGS * Math.ceil(PER_LEG / 500));
  console.log(`action matrix: ${LEGS} legs, ${calls} batch calls, ${ledger.requests - calls} × 429 (${ledger.requests} requests, ceiling ${RATE_LIMIT}/s)`);
}, 120_000);
