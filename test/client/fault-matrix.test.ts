import type { FaultInput, Sandbox } from '../../sandbox/server.ts';
import { resendsForUnknown } from '../../src/resend.ts';
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
  expect({ sent: out.sent, failed: out.failed, unknown: out.unknown, notAttempted: out.notAttempted, error: out.error?.code }).toEqual({ sent: N, failed: 0, unknown: 0, notAttempted: 0, error: undefined });
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

/**
 * Every fault at once on 3,001 messages with the default retry policy ("retry 500 once"): some calls
 * end without a definitive answer. Those inputs are `unknown` with their chunk's key, never `failed`;
 * re-sending each unknown chunk with its key (and the not-attempted ones with theirs) settles them all:
 * the ledger then holds every input exactly once.
 */
test('all faults at once: nothing lost, unknowns carry their keys, and re-sending with those keys completes each input exactly once', async () => {
  const n = 3001;
  const faults: FaultInput[] = [
    // Four 500s in a row after commit: both lanes' chunks meet "retry once" twice and give up, so the
    // run always has unknowns to settle (the other faults interleave at random).
    { route: ROUTE, kind: 'error_500_after_commit', skip: 8, count: 4 },
    { route: ROUTE, kind: 'error_500_after_commit', every: 4 },
    { route: ROUTE, kind: 'reset_after_commit', every: 5 },
    { route: ROUTE, kind: 'reset_before_commit', every: 7 },
    { route: ROUTE, kind: 'rate_limit_429', count: 3, retry_after: 1 },
  ];
  for (const fault of faults) sandbox.control.addFault(fault);
  const { client, close } = sandboxClient(sandbox, { concurrency: 2 });
  const input = emails(n);
  const first = await client.messages.sendBatch(input, { idempotencyKey: 'all-faults' });
  expect(first.sent + first.failed + first.unknown + first.notAttempted).toBe(n);
  expect(first.results.map((r) => r.index)).toEqual(input.map((_, i) => i));
  // A whole-call failure under these faults is never a definitive refusal: it is unknown, with its key.
  expect(first.failed).toBe(0);
  expect(first.unknown).toBeGreaterThan(0);
  for (const r of first.results) if (r.status === 'unknown') expect(r.call.idempotencyKey).toMatch(/^all-faults:chunk-\d+$/);

  sandbox.control.clearFaults();
  const retried = [...resendsForUnknown(first)];
  const notAttempted = new Map<string, number[]>();
  for (const r of first.results) if (r.status === 'not_attempted') notAttempted.set(r.call.idempotencyKey, [...(notAttempted.get(r.call.idempotencyKey) ?? []), r.index]);
  for (const [idempotencyKey, indexes] of notAttempted) retried.push({ idempotencyKey, indexes });
  let resolved = 0;
  const ids = new Map<number, string>();
  for (const r of first.results) if (r.status === 'sent') ids.set(r.index, r.id);
  for (const { idempotencyKey, indexes } of retried) {
    const again = await client.messages.sendBatch(indexes.map((i) => input[i]), { idempotencyKey });
    expect(again.sent).toBe(indexes.length);
    for (const r of again.results) {
      if (r.status !== 'sent') throw new Error(`input ${indexes[r.index]} not settled`);
      if (first.results[indexes[r.index]].status !== 'sent') resolved += 1;
      ids.set(indexes[r.index], r.id);
    }
  }
  await close();
  console.log(
    `fault matrix (all faults, ${n} messages): sent ${first.sent}, failed ${first.failed}, unknown ${first.unknown}, not attempted ${first.notAttempted}; ` +
      `then resolved ${resolved} by ${retried.length} re-send(s) with the reported keys`,
  );
  expect(resolved).toBe(first.unknown + first.notAttempted);
  const ledger = sandbox.control.ledger().messages;
  expect(ledger).toHaveLength(n);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  const bodyById = new Map(ledger.map((m) => [m.id, m.body]));
  for (let i = 0; i < n; i++) expect(bodyById.get(ids.get(i)!)).toBe(`m-${i}`);
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
