import { ledgerRows } from '../support/ledger-rows.ts';
import type { FaultInput, Sandbox } from '../../sandbox/server.ts';
import { resendsForUnknown } from '../../src/resend.ts';
import type { BulkOutcome } from '../../src/types.ts';
import { emails, sandboxClient, startSandbox } from './sandbox-client.ts';

/**
 * Exactly once under every fault the sandbox can inject: each run sends 5,000 messages (10 batch
 * calls) while one fault kind hits the batch route. Whatever the client could not settle is `unknown`
 * (never `failed`) with its key; re-sending those with their keys settles them, and then the sandbox's
 * ledger must show every input delivered exactly once, id for id with what the client reported.
 */
const N = 5000;
const ROUTE = 'POST /v1/messages/batch';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

type Client = ReturnType<typeof sandboxClient>['client'];
type Input = ReturnType<typeof emails>;

/**
 * Settles every input of a first run: nothing may be `failed` (no fault here is a definitive refusal);
 * each key with an `unknown` input is sent again (its whole chunk, same key), and each not-attempted
 * chunk is sent under the key it would have used. Returns the final message id of every input.
 */
async function settle(client: Client, input: Input, first: BulkOutcome, label: string): Promise<Map<number, string>> {
  expect(first.sent + first.failed + first.unknown + first.notAttempted).toBe(input.length);
  expect(first.results.map((r) => r.index)).toEqual(input.map((_, i) => i));
  expect(first.failed).toBe(0);
  const ids = new Map<number, string>();
  for (const r of first.results) if (r.status === 'sent') ids.set(r.index, r.id);
  const resends = resendsForUnknown(first);
  const notAttempted = new Map<string, number[]>();
  for (const r of first.results) if (r.status === 'not_attempted') notAttempted.set(r.call.idempotencyKey, [...(notAttempted.get(r.call.idempotencyKey) ?? []), r.index]);
  for (const [idempotencyKey, indexes] of notAttempted) resends.push({ idempotencyKey, indexes });
  let resolved = 0;
  for (const { idempotencyKey, indexes } of resends) {
    const again = await client.messages.sendBatch(indexes.map((i) => input[i]), { idempotencyKey });
    for (const r of again.results) {
      if (r.status !== 'sent') throw new Error(`input ${indexes[r.index]} not settled by its key`);
      if (first.results[indexes[r.index]].status !== 'sent') resolved += 1;
      ids.set(indexes[r.index], r.id);
    }
  }
  expect(resolved).toBe(first.unknown + first.notAttempted);
  console.log(
    `fault matrix (${label}, ${input.length} messages): sent ${first.sent}, failed ${first.failed}, unknown ${first.unknown}, not attempted ${first.notAttempted}; ` +
      `then resolved ${resolved} by ${resends.length} re-send(s) with the reported keys`,
  );
  return ids;
}

/** The ledger holds every input exactly once, under the id the client reported for it. */
function expectExactlyOnce(ids: Map<number, string>, n: number): void {
  const ledger = ledgerRows(sandbox).messages;
  expect(ledger).toHaveLength(n);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  const bodyById = new Map(ledger.map((m) => [m.id, m.body]));
  for (let i = 0; i < n; i++) expect(bodyById.get(ids.get(i)!)).toBe(`m-${i}`);
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
  const input = emails(N);
  const out = await client.messages.sendBatch(input);
  expect(sandbox.control.faults().reduce((n, f) => n + f.fired, 0)).toBeGreaterThan(0);
  // At least one call went out more than once under its key (a retry), whether or not it then settled.
  expect(requests.length).toBeGreaterThan(new Set(requests.map((r) => r.headers['idempotency-key'])).size);
  sandbox.control.clearFaults();
  const ids = await settle(client, input, out, _name);
  await close();
  expectExactlyOnce(ids, N);
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
  expect(first.unknown).toBeGreaterThan(0);
  for (const r of first.results) if (r.status === 'unknown') expect(r.call.idempotencyKey).toMatch(/^all-faults:chunk-\d+$/);
  sandbox.control.clearFaults();
  const ids = await settle(client, input, first, 'all faults at once');
  await close();
  expectExactlyOnce(ids, n);
});

test('409 in progress is really what the retry met', async () => {
  sandbox.control.addFault({ route: ROUTE, kind: 'slow', delay_ms: 1500, count: 1 });
  const { client, requests, close } = sandboxClient(sandbox, { timeoutMs: 400 });
  const out = await client.messages.sendBatch(emails(10));
  await close();
  expect(out.sent).toBe(10);
  expect(requests.map((r) => r.status)).toContain(409);
  expect(ledgerRows(sandbox).messages).toHaveLength(10);
});
