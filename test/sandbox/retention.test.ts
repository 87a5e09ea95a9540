/** retain_messages: the oldest rows go past the bound; counts, duplicate detection and replays stay. */
import { boot, call, expectError, ledger, many, phone, useSandbox, wa } from './helpers.ts';
import type { Res } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const sb = useSandbox({ retain_messages: 3 });

const batch = (n: number, from = 0, idem?: string): Promise<Res> => call(sb, 'POST', '/messages/batch', { body: { messages: many(n, (i) => wa(phone(from + i), `m${from + i}`)) }, idem });
const page = async (query: string): Promise<Res> => call(sb, 'GET', `/__sandbox/ledger${query}`, { key: null });

test('past retain_messages the oldest rows go: the ledger and GET /messages/{id} hold the newest, totals count all', async () => {
  const sent = (await batch(5)).body.data.map((r: { id: string }) => r.id);
  const l = await ledger(sb);
  expect(l.messages.map((m: { body: string }) => m.body)).toEqual(['m2', 'm3', 'm4']);
  const { totals } = (await page('')).body;
  expect(totals).toMatchObject({ messages: 5, messages_retained: 3, messages_evicted: 2 });
  expectError(await call(sb, 'GET', `/messages/${sent[1]}`), 404, 'resource_not_found', 'id');
  expect((await call(sb, 'GET', `/messages/${sent[2]}`)).body.data.body).toBe('m2');
  const inbox = (await call(sb, 'GET', `${sb.origin}/inbox/state`, { key: null })).body;
  expect({ total: inbox.totals.messages, shown: inbox.messages.map((m: { body: string }) => m.body) }).toEqual({ total: 5, shown: ['m2', 'm3', 'm4'] });
});

test('duplicates are detected against evicted messages, and per-key counts survive eviction', async () => {
  await batch(1, 0, 'first');
  await batch(4, 1);
  expect((await ledger(sb)).messages.map((m: { body: string }) => m.body)).not.toContain('m0');
  await batch(1, 0);
  const s = sb.control.summary();
  expect(s).toMatchObject({ messages: 6, messages_retained: 3, duplicates_detected: 1 });
  expect(s.messages_by_idempotency_key).toEqual({ 'acc_demo/first': 1 });
  // The group view covers retained rows only: the evicted original is in no group.
  expect(s.duplicates).toEqual([]);
});

test('a replay inside the idempotency window still replays after its messages were evicted', async () => {
  const first = await batch(2, 0, 'order-1');
  await batch(4, 10);
  const again = await batch(2, 0, 'order-1');
  expect(again.headers['idempotent-replay']).toBe('true');
  expect(again.text).toBe(first.text);
  expect(sb.control.summary()).toMatchObject({ messages: 6, duplicates_detected: 0 });
});

test('the ledger is read in pages with a cursor; a cursor into evicted rows continues at the oldest retained', async () => {
  await batch(3);
  const p1 = (await page('?limit=2')).body;
  expect(p1.data.map((m: { body: string }) => m.body)).toEqual(['m0', 'm1']);
  const p2 = (await page(`?limit=2&after=${p1.next_cursor}`)).body;
  expect(p2.data.map((m: { body: string }) => m.body)).toEqual(['m2']);
  expect(p2.next_cursor).toBeNull();
  await batch(2, 3);
  const p3 = (await page(`?limit=2&after=${p1.next_cursor}`)).body;
  expect(p3.data.map((m: { body: string }) => m.body)).toEqual(['m2', 'm3']);
  expect(p3.totals).toMatchObject({ messages: 5, messages_evicted: 2 });
});

test('bad ledger queries are 400 naming the parameter', async () => {
  expectError(await page('?limit=0'), 400, 'validation_failed', 'limit');
  expectError(await page('?limit=1001'), 400, 'validation_failed', 'limit');
  expectError(await page('?limit=2&limit=3'), 400, 'validation_failed', 'limit');
  expectError(await page('?after=jsq_0'), 400, 'validation_failed', 'after');
  expectError(await page('?after=msq_x'), 400, 'validation_failed', 'after');
  expectError(await page('?rows=constructor'), 400, 'validation_failed', 'rows');
  expectError(await page('?everything=1'), 400, 'validation_failed', 'everything');
  expect(() => sb.control.ledger({ limit: 5000 })).toThrow(/limit/);
});

test('lowering retain_messages by a config patch evicts at once', async () => {
  await batch(3);
  sb.control.configure({ retain_messages: 1 });
  expect(sb.control.ledger().data.map((m) => m.body)).toEqual(['m2']);
  expect(sb.control.ledger().totals).toMatchObject({ messages: 3, messages_retained: 1 });
});

test('committed idempotency answers are swept once past their retention (sandbox clock)', async () => {
  const clock = new VirtualClock();
  const s2 = await boot({ idempotency_retention_seconds: 10 }, clock);
  try {
    for (const k of ['a', 'b', 'c']) await call(s2, 'POST', '/messages/batch', { body: { messages: [wa()] }, idem: k });
    expect(s2.control.ledger().totals.idempotency_keys).toBe(3);
    clock.advance(9_999);
    expect(s2.control.ledger().totals.idempotency_keys).toBe(3);
    clock.advance(1);
    expect(s2.control.ledger().totals.idempotency_keys).toBe(0);
  } finally {
    await s2.close();
  }
});

test('a stored answer replays byte for byte when it holds non-ASCII text (it is kept deflated)', async () => {
  const body = { messages: [wa(), { channel: 'pigeon✉', to: 'x', body: 'ü' }] };
  const first = await call(sb, 'POST', '/messages/batch', { body, idem: 'unicode' });
  expect(first.text).toContain('pigeon✉');
  const again = await call(sb, 'POST', '/messages/batch', { body, idem: 'unicode' });
  expect({ replay: again.headers['idempotent-replay'], text: again.text }).toEqual({ replay: 'true', text: first.text });
});
