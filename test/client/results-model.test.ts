import { bodyBuilder } from '../../src/resources/operation.ts';
import { actionChunkKeys, n8nChunkKeys } from '../../src/adapter-keys.ts';
import { ApiError } from '../../src/errors.ts';
import { describeImportResults, importResults, rowErrorAsApiError } from '../../src/import-results.ts';
import { describeChunkEvent, describeClientEvent } from '../../src/log-lines.ts';
import { attemptMayHaveCommitted, isProgrammingError, neverConnected } from '../../src/outcome-certainty.ts';
import { describeOutcome, describeResult } from '../../src/outcome-wording.ts';
import { splitRecipients } from '../../src/recipients.ts';
import { resendsForUnknown } from '../../src/resend.ts';
import type { CallInfo, ImportChunk, ImportWaitOutcome, ItemResult, Job } from '../../src/types.ts';
import { waitEndedError } from '../../src/wait-ending.ts';

/** The shared results model: pure functions both adapters call. */

function err(status: number, code: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}): ApiError {
  return new ApiError({ status, type: 'x', code, message: `${code} happened`, ...extra });
}

describe('unknown versus failed', () => {
  test.each([
    [0, 'transport_error', true],
    [200, 'transport_error', true],
    [500, 'internal_error', true],
    [502, 'transport_error', true],
    [503, 'service_unavailable', true],
    [409, 'idempotency_request_in_progress', true],
    [409, 'idempotency_key_reused', false],
    [400, 'request_refused', false],
    [401, 'invalid_api_key', false],
    [402, 'insufficient_credits', false],
    [403, 'account_suspended', false],
    [404, 'resource_not_found', false],
    [405, 'method_not_allowed', false],
    [413, 'request_refused', false],
    [422, 'validation_failed', false],
    [429, 'rate_limit_exceeded', false],
    [0, 'aborted', false],
    [0, 'invalid_input', false],
  ])('an attempt ending in HTTP %i %s may have committed: %s', (status, code, expected) => {
    expect(attemptMayHaveCommitted(err(status, code))).toBe(expected);
  });

  test('a connection never made is told apart (undici code, or fetch wrapping the cause)', () => {
    expect(neverConnected(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(neverConnected(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) }))).toBe(true);
    expect(neverConnected(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(false);
    expect(neverConnected(Object.assign(new Error('timeout'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(false);
  });

  test('a TypeError without a cause is a programming error; fetch’s network TypeError is not', () => {
    expect(isProgrammingError(new TypeError('runtime.transport is not a function'))).toBe(true);
    expect(isProgrammingError(new TypeError('fetch failed', { cause: new Error('ECONNRESET') }))).toBe(false);
    expect(isProgrammingError(new Error('socket hang up'))).toBe(false);
  });

  test('an unknown error’s remedy says to send again with the same key; a refused one keeps its own', () => {
    expect(err(500, 'internal_error', { outcomeUnknown: true }).remedy).toMatch(/same idempotency key.*never twice/);
    expect(err(402, 'insufficient_credits').remedy).toMatch(/top up/);
  });

  test('a remedy that points at a field names it, for both adapters alike', () => {
    expect(err(422, 'validation_failed', { param: 'messages[3].to' }).remedy).toBe('Fix the field `messages[3].to`.');
    expect(err(422, 'validation_failed').remedy).toBe('Fix the input the message names.');
  });
});

const call = (chunk: number, key = `k:chunk-${chunk}`, replayed = false): CallInfo => ({ chunk, idempotencyKey: key, replayed });

describe('wording', () => {
  test('an outcome in one line', () => {
    expect(describeOutcome({ sent: 998, failed: 1, unknown: 1, notAttempted: 0 })).toBe(
      '998 sent, 1 failed, 1 unknown (send again with the same keys: it replays or completes, never twice)',
    );
    expect(describeOutcome({ sent: 5, failed: 0, unknown: 0, notAttempted: 2, replayed: 3 })).toBe('5 sent (3 replayed: already done by an earlier attempt), 2 not attempted');
  });

  test('a result in one line: unknown names its key; a validation error without param does not mention `param`', () => {
    const unknown: ItemResult = { index: 4, status: 'unknown', error: err(0, 'transport_error', { outcomeUnknown: true }), call: call(1, 'key-7') };
    expect(describeResult(unknown, 'item 4')).toMatch(/^Outcome unknown: transport_error: .*same idempotency key.*Idempotency key: key-7\. — item 4$/);
    const unnamed: ItemResult = { index: 0, status: 'failed', error: err(422, 'validation_failed'), wholeCall: false, call: call(0) };
    expect(describeResult(unnamed)).not.toMatch(/param/);
    const named: ItemResult = { index: 0, status: 'failed', error: err(422, 'validation_failed', { param: 'to' }), wholeCall: false, call: call(0) };
    // The field is named once: in the remedy, not again as `(field: to)`.
    expect(describeResult(named)).toMatch(/Fix the field `to`\.$/);
    const skipped: ItemResult = { index: 9, status: 'not_attempted', error: err(402, 'insufficient_credits', { message: 'Not attempted: an earlier call failed' }), call: call(3) };
    expect(describeResult(skipped)).toMatch(/Nothing was sent for it\. .*top up.* Its key would have been k:chunk-3$/);
  });

  test('client and chunk events as log lines', () => {
    expect(describeClientEvent({ type: 'retry', method: 'POST', path: '/messages/batch', code: 'internal_error', retry: 1, delayMs: 600, requestId: 'req_9' })).toBe(
      'Retrying POST /messages/batch after internal_error (retry 1) in 0.6 s [request req_9].',
    );
    expect(describeClientEvent({ type: 'rate_limit_wait', ms: 1500, reason: 'retry_after' })).toBe('Waiting 1.5 s for the rate window (the service answered 429 with Retry-After).');
    const base = { chunk: 1, chunks: 3, offset: 500, count: 500, idempotencyKey: 'K1' };
    expect(describeChunkEvent({ ...base, status: 'done', ms: 1200, replayed: true }, 'messages')).toBe('Chunk 2/3 (500 messages): done in 1.2 s, replayed (already done by an earlier attempt).');
    expect(describeChunkEvent({ ...base, status: 'unknown', error: err(0, 'transport_error') }, 'messages')).toMatch(/outcome unknown \(transport_error\); send again with idempotency key K1/);
    expect(describeChunkEvent({ ...base, status: 'failed', error: err(402, 'insufficient_credits') }, 'contacts')).toBe('Chunk 2/3 (500 contacts): refused as a whole (insufficient_credits).');
  });
});

describe('recipients', () => {
  test('comma, semicolon and newline lists, trimmed, empties and comments dropped; arrays as given', () => {
    expect(splitRecipients(' a@x.com, b@x.com;\n\n c@x.com ,,\n# team\n')).toEqual(['a@x.com', 'b@x.com', 'c@x.com']);
    expect(splitRecipients(['+491', ' +492 ', '', null, 7])).toEqual(['+491', '+492', '7']);
    expect(splitRecipients(undefined)).toEqual([]);
    expect(splitRecipients('')).toEqual([]);
  });
});

describe('adapter keys', () => {
  const n8n = { lineageId: '101', nodeId: 'node-a', runIndex: 0, operation: 'message.sendBatch' };
  const chunkOf = (chunk: number, items: unknown[]) => ({ chunk, offset: chunk * 500, items, chunks: 2 });

  test('n8n: the same lineage gives the same keys (a Retry replays); a new lineage, run, chunk or payload a new key', () => {
    const items = [{ to: 'a' }];
    const key = n8nChunkKeys(n8n)(chunkOf(0, items));
    expect(n8nChunkKeys({ ...n8n })(chunkOf(0, [{ to: 'a' }]))).toBe(key);
    expect(key).toMatch(/^n8n-[0-9a-f]{48}$/);
    const others = [
      n8nChunkKeys({ ...n8n, lineageId: '102' })(chunkOf(0, items)),
      n8nChunkKeys({ ...n8n, nodeId: 'node-b' })(chunkOf(0, items)),
      n8nChunkKeys({ ...n8n, runIndex: 1 })(chunkOf(0, items)),
      n8nChunkKeys({ ...n8n, operation: 'contact.import' })(chunkOf(0, items)),
      n8nChunkKeys({ ...n8n, itemIndex: 0 })(chunkOf(0, items)),
      n8nChunkKeys({ ...n8n, context: { body: 'x' } })(chunkOf(0, items)),
      n8nChunkKeys(n8n)(chunkOf(1, items)),
      n8nChunkKeys(n8n)(chunkOf(0, [{ to: 'b' }])),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  test('action: a re-run (same run id, any attempt) replays; a new run applies, so A → B → A imports A again', () => {
    const run = (runId: string) => actionChunkKeys({ repository: 'o/r', runId, job: 'sync', step: 'import', operation: 'sync-contacts' });
    const A = [{ email: 'a@x.com' }];
    const B = [{ email: 'b@x.com' }];
    const first = run('1')(chunkOf(0, A));
    expect(run('1')(chunkOf(0, A))).toBe(first); // "Re-run jobs": the attempt is not a part
    const third = run('3')(chunkOf(0, A));
    expect(new Set([first, run('2')(chunkOf(0, B)), third]).size).toBe(3);
    expect(actionChunkKeys({ repository: 'o/r', runId: '1', job: 'sync', step: 'other', operation: 'sync-contacts' })(chunkOf(0, A))).not.toBe(first);
  });
});

describe('resending unknowns', () => {
  test('each key with an unknown result → the whole chunk’s indexes under that key', () => {
    const e = err(0, 'transport_error', { outcomeUnknown: true });
    const results: ItemResult[] = [
      { index: 0, status: 'sent', id: 'm0', row: {}, call: call(0) },
      { index: 1, status: 'sent', id: 'm1', row: {}, call: call(0) },
      { index: 2, status: 'unknown', error: e, call: call(1) },
      { index: 3, status: 'unknown', error: e, call: call(1) },
      { index: 4, status: 'sent', id: 'm4', row: {}, call: call(2) },
      { index: 5, status: 'unknown', error: e, call: call(2) },
      { index: 6, status: 'not_attempted', error: e, call: call(3) },
    ];
    expect(resendsForUnknown({ results })).toEqual([
      { idempotencyKey: 'k:chunk-1', indexes: [2, 3] },
      { idempotencyKey: 'k:chunk-2', indexes: [4, 5] },
    ]);
  });
});

describe('import results', () => {
  const job = (id: string, extra: Partial<Job> = {}): Job => ({ object: 'job', id, type: 'contacts.import', status: 'queued', total: 3, processed: 0, failed: 0, errors: [], created_at: 't', ...extra });
  const chunks: ImportChunk[] = [
    { chunk: 0, offset: 0, count: 3, status: 'queued', job: job('job_a'), call: call(0) },
    { chunk: 1, offset: 3, count: 3, status: 'queued', job: job('job_b'), call: call(1, 'k:chunk-1', true) },
    { chunk: 2, offset: 6, count: 2, status: 'unknown', error: err(0, 'transport_error', { outcomeUnknown: true }), call: call(2) },
    { chunk: 3, offset: 8, count: 1, status: 'not_attempted', error: err(0, 'transport_error'), call: call(3) },
  ];

  test('without waiting, queued contacts are queued; unknown and not-attempted keep their keys', () => {
    const r = importResults({ chunks });
    expect(r.contacts.map((c) => c.status)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'unknown', 'unknown', 'not_attempted']);
    expect(r.contacts[6]).toMatchObject({ index: 6, idempotencyKey: 'k:chunk-2' });
    expect(r.contacts[4]).toMatchObject({ jobId: 'job_b', replayed: true });
  });

  test('waited: finished rows imported, row errors at their contact, one outside its chunk unplaced, a timed-out job unfinished with its id', () => {
    const done = job('job_a', { completed_at: 'now', processed: 3, failed: 2, errors: [{ index: 1, error: { code: 'validation_failed', message: 'bad email', param: 'email' } }, { index: 7 }] });
    const outcome: ImportWaitOutcome = {
      chunks,
      waits: [
        { chunk: 0, offset: 0, count: 3, jobId: 'job_a', result: { status: 'completed', job: done } },
        { chunk: 1, offset: 3, count: 3, jobId: 'job_b', result: { status: 'timeout', job: job('job_b', { processed: 1 }) } },
      ],
      rowErrors: [
        { index: 1, rowInJob: 1, jobId: 'job_a', chunk: 0, code: 'validation_failed', message: 'bad email', param: 'email', error: {} },
        { rowInJob: 7, outsideChunk: true, jobId: 'job_a', chunk: 0, error: { index: 7 } },
      ],
      totals: { contacts: 9, queued: 6, processed: 4, failed: 2, jobs: 2, completedJobs: 1, unfinishedJobs: 1 },
    };
    const r = importResults(outcome);
    expect(r.contacts.map((c) => c.status)).toEqual(['imported', 'failed', 'imported', 'unfinished', 'unfinished', 'unfinished', 'unknown', 'unknown', 'not_attempted']);
    // A job's row has no HTTP status of its own (the job was read with a 200): none is made up from its code.
    expect(r.contacts[1].error).toMatchObject({ code: 'validation_failed', param: 'email', status: 0 });
    expect(r.contacts[3].error).toMatchObject({ code: 'wait_timeout' });
    expect(r.contacts[3].error?.message).toMatch(/job_b did not finish in time \(1 of 3 rows processed\); it keeps running on the service: raise timeoutMs, or call jobs\.wait with its id\./);
    expect(r.unplacedRowErrors).toHaveLength(1);
    expect(r.unfinishedJobIds).toEqual(['job_b']);
    expect(r.counts).toEqual({ imported: 2, queued: 0, unfinished: 3, failed: 1, unknown: 2, not_attempted: 1 });
    expect(describeImportResults(r)).toBe(
      '2 imported, 1 failed, 1 row error(s) naming no row of their job, 3 unfinished (job job_b: it keeps running on the service: call jobs.wait with its id), 2 unknown (import again with the same keys: it replays or completes, never twice), 1 not attempted',
    );
  });

  test('row-error defaults: no code → row_error with the element in the message; hostile shapes never crash', () => {
    const e = rowErrorAsApiError({ error: { reason: 'dup' } });
    expect(e).toMatchObject({ code: 'row_error', type: 'invalid_request_error' });
    expect(e.message).toMatch(/"reason":"dup"/);
    expect(e.remedy).toMatch(/fix the row/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => rowErrorAsApiError({ error: cyclic, code: 'constructor' })).not.toThrow();
    for (const code of ['constructor', '__proto__', 'toString']) expect(rowErrorAsApiError({ error: {}, code })).toMatchObject({ status: 0, remedy: expect.any(String) });
  });

  test('wait endings: timeout, cancel and failed poll each name the job to resume; completion none', () => {
    expect(waitEndedError('job_x', { status: 'completed', job: job('job_x') })).toBeUndefined();
    expect(waitEndedError('job_x', { status: 'timeout' }, 30_000)?.message).toBe('Job job_x did not finish within 30 s; it keeps running on the service: raise timeoutMs, or call jobs.wait with its id.');
    expect(waitEndedError('job_x', { status: 'aborted' })).toMatchObject({ code: 'aborted' });
    const polled = waitEndedError('job_x', { status: 'poll_failed', error: err(0, 'transport_error', { outcomeUnknown: true }) });
    expect(polled).toMatchObject({ code: 'transport_error', outcomeUnknown: false });
    expect(polled?.message).toMatch(/job_x/);
  });
});

describe('chunk bodies built from their items’ JSON', () => {
  test('equal to serialising the whole body, for every body shape, with unicode and hostile content', () => {
    const items = [{ to: 'a@x.com', body: 'Grüße 👋 "quoted" \u0000chunk-items\u0000' }, { to: 'b', extra: [1, { deep: null }] }, undefined];
    const shapes: ((list: unknown[]) => unknown)[] = [
      (list) => ({ messages: list }),
      (list) => ({ channel: 'email', subject: '\u0000chunk-items\u0000', body: 'x', to: list }),
      (list) => ({ contacts: list }),
    ];
    for (const shape of shapes) {
      const build = bodyBuilder(shape);
      const texts = items.map((item) => JSON.stringify(item) ?? 'null');
      expect(build(texts)).toBe(JSON.stringify(shape(items)));
      expect(build([])).toBe(JSON.stringify(shape([])));
    }
  });
});
