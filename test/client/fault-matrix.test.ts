import type { FaultInput, Sandbox } from '../../sandbox/server.ts';
import type { BulkOutcome } from '../../src/types.ts';
import { emails, sandboxClient, startSandbox } from './sandbox-client.ts';

/**
 * Exactly once under every fault the sandbox can inject: each run sends 5,000 messages (10 batch
 * calls) while one fault kind hits the batch route, then the sandbox's ledger must show every input
 * delivered exactly once and the client's results must agree with it, id for id.
 */
const N = 5000;
const ROUTE = 'POST /v1/messages/batch';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

function expectExactlyOnce(out: BulkOutcome): void {
  expect({ sent: out.sent, failed: out.failed, notAttempted: out.notAttempted, error: out.error?.code }).toEqual({ sent: N, failed: 0, notAttempted: 0, error: undefined });
  const ledger = sandbox.control.ledger().messages;
  expect(ledger).toHaveLength(N);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  const bodyById = new Map(ledger.map((m) => [m.id, m.body]));
  for (const r of out.results) {
    if (r.status !== 'sent') throw new Error(`input ${r.index} not sent`);
    expect(bodyById.get(r.id)).toBe(`m-${r.index}`);
  }
}

const cases: [string, FaultInput[], { timeoutMs?: number }][] = [
  ['500 before commit', [{ route: ROUTE, kind: 'error_500_before_commit', every: 3 }], {}],
  ['500 after commit', [{ route: ROUTE, kind: 'error_500_after_commit', every: 3 }], {}],
  ['connection reset before commit', [{ route: ROUTE, kind: 'reset_before_commit', every: 3 }], {}],
  ['connection reset after commit (server did the work, no answer)', [{ route: ROUTE, kind: 'reset_after_commit', every: 3 }], {}],
  ['409 in progress (slow first attempt, client timeout, retry while it runs)', [{ route: ROUTE, kind: 'slow', delay_ms: 1500, count: 2, skip: 1 }], { timeoutMs: 400 }],
  ['429 storm', [{ route: ROUTE, kind: 'rate_limit_429', count: 6, retry_after: 1 }], {}],
];

test.each(cases)('fault matrix: %s → every input delivered exactly once, results agree with the ledger', async (_name, faults, options) => {
  for (const fault of faults) sandbox.control.addFault(fault);
  const { client, requests, close } = sandboxClient(sandbox, { ...options, concurrency: 2 });
  const out = await client.messages.sendBatch(emails(N));
  await close();
  expect(sandbox.control.faults().reduce((n, f) => n + f.fired, 0)).toBeGreaterThan(0);
  expect(requests.length).toBeGreaterThan(10);
  expectExactlyOnce(out);
});

test('all faults at once: what the "retry once" rule gives up on is reported, and a re-run with the same key completes exactly once', async () => {
  const faults: FaultInput[] = [
    { route: ROUTE, kind: 'error_500_after_commit', every: 4 },
    { route: ROUTE, kind: 'reset_after_commit', every: 5 },
    { route: ROUTE, kind: 'reset_before_commit', every: 7 },
    { route: ROUTE, kind: 'rate_limit_429', count: 3, retry_after: 1 },
  ];
  for (const fault of faults) sandbox.control.addFault(fault);
  const { client, close } = sandboxClient(sandbox, { concurrency: 2 });
  const first = await client.messages.sendBatch(emails(N), { idempotencyKey: 'all-faults' });
  // Nothing is dropped: each input is sent, or failed with the whole call's error (outcome unknown).
  expect(first.sent + first.failed + first.notAttempted).toBe(N);
  for (const r of first.results) if (r.status === 'failed') expect(r.wholeCall).toBe(true);
  sandbox.control.clearFaults();
  const second = await client.messages.sendBatch(emails(N), { idempotencyKey: 'all-faults' });
  await close();
  expectExactlyOnce(second);
});

test('409 in progress is really what the retry met', async () => {
  sandbox.control.addFault({ route: ROUTE, kind: 'slow', delay_ms: 1500, count: 1 });
  const { client, requests, close } = sandboxClient(sandbox, { timeoutMs: 400 });
  const out = await client.messages.sendBatch(emails(10));
  await close();
  expect(out.sent).toBe(10);
  expect(requests.map((r) => r.status)).toContain(409);
  expect(sandbox.control.ledger().messages).toHaveLength(10);
});
