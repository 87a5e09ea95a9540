/** §3/§4 bulk import jobs, GET /jobs/{id}, GET /contacts pagination, GET /contact-attributes, GET /account. */
import type { Sandbox } from '../../sandbox/server.ts';
import { boot, call, expectError, ledger, many, phone, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const bulk = (sb: Sandbox, contacts: unknown, key?: string, idem?: string) => call(sb, 'POST', '/contacts/bulk', { body: { contacts }, key, idem });

/** Jobs run on the sandbox's clock: a minute passes, then the job must have completed. */
async function finishJob(sb: Sandbox, clock: VirtualClock, id: string): Promise<any> {
  clock.advance(60_000);
  const j = (await call(sb, 'GET', `/jobs/${id}`)).body.data;
  expect(j.status).toBe('completed');
  return j;
}

describe('§4 POST /contacts/bulk and the job', () => {
  const clock = new VirtualClock();
  const sb = useSandbox({ job_rows_per_second: 0 }, { clock });
  const waitJob = (_sb: Sandbox, id: string) => finishJob(sb, clock, id);

  test('§4 202 with a queued job; nothing created when it returns', async () => {
    const r = await bulk(sb, [{ first_name: 'Ana', email: 'ana@example.com' }, { whatsapp: '+4915112345678' }]);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      data: {
        object: 'job', id: expect.stringMatching(/^job_[A-Za-z0-9]+$/), type: 'contacts.bulk', status: 'queued', total: 2, processed: 0, failed: 0, errors: [],
        created_at: expect.stringMatching(/Z$/), completed_at: null,
      },
    });
    const l = await ledger(sb);
    expect(l.contacts).toHaveLength(0);
    expect(l.jobs).toHaveLength(1);
    expect((await call(sb, 'GET', '/contacts')).body.data).toHaveLength(0);
    const j = await call(sb, 'GET', `/jobs/${r.body.data.id}`);
    expect(j.status).toBe(200);
    expect(j.body.data.status).toBe('queued');
  });

  test('§3 the job progresses queued → processing → completed; contacts appear only as it runs (sandbox clock)', async () => {
    const contacts = many(100, (i) => ({ first_name: `C${i}`, whatsapp: phone(i) }));
    const r = await bulk(sb, contacts);
    const id = r.body.data.id;
    const createdAt = clock.now();
    sb.control.configure({ job_rows_per_second: 200 }); // 100 rows take 500 ms
    clock.advance(100);
    const mid = (await call(sb, 'GET', `/jobs/${id}`)).body.data;
    expect(mid).toMatchObject({ status: 'processing', processed: 20, completed_at: null });
    expect((await call(sb, 'GET', '/contacts?limit=100')).body.data).toHaveLength(20);
    clock.advance(399);
    expect((await call(sb, 'GET', `/jobs/${id}`)).body.data).toMatchObject({ status: 'processing', processed: 99 });
    clock.advance(1);
    const done = (await call(sb, 'GET', `/jobs/${id}`)).body.data;
    expect(done).toMatchObject({ status: 'completed', total: 100, processed: 100, failed: 0, errors: [] });
    expect(Date.parse(done.completed_at) - Date.parse(done.created_at)).toBe(500);
    expect(Date.parse(done.created_at)).toBe(createdAt);
    expect((await ledger(sb)).contacts).toHaveLength(100);
  });

  test('§4 per-row errors: failed count and { index, error } rows naming the field', async () => {
    sb.control.configure({ job_rows_per_second: 100000 });
    const r = await bulk(sb, [
      { first_name: 'Ok', email: 'ok@example.com' },
      { first_name: 'NoAddress' },
      { email: 'not-an-email' },
      { whatsapp: '0151 1234' },
      { email: 'x@example.com', favourite_color: 'red' },
      { email: 'y@example.com', first_name: 7 },
      'not an object',
      { email: 'z@example.com', city: 'Paris', vip: true },
      { email: 'w@example.com', vip: 'yes' },
    ]);
    const job = await waitJob(sb, r.body.data.id);
    expect(job).toMatchObject({ total: 9, processed: 9, failed: 7 });
    const byIndex = Object.fromEntries(job.errors.map((e: any) => [e.index, e.error]));
    expect(Object.keys(byIndex).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 8]);
    expect(byIndex[1]).toEqual({ type: 'invalid_request_error', code: 'validation_failed', message: expect.any(String) });
    expect(byIndex[2].param).toBe('email');
    expect(byIndex[3].param).toBe('whatsapp');
    expect(byIndex[4].param).toBe('favourite_color');
    expect(byIndex[5].param).toBe('first_name');
    expect(byIndex[6].code).toBe('validation_failed');
    expect(byIndex[8].param).toBe('vip');
    const list = (await call(sb, 'GET', '/contacts')).body.data;
    expect(list.map((c: any) => c.email)).toEqual(['ok@example.com', 'z@example.com']);
    expect(list[1]).toEqual({ object: 'contact', id: expect.stringMatching(/^con_/), first_name: null, whatsapp: null, email: 'z@example.com', attributes: { city: 'Paris', vip: true }, created_at: expect.any(String), updated_at: expect.any(String) });
  });

  test('§4 rows that are not objects fail one by one', async () => {
    sb.control.configure({ job_rows_per_second: 100000 });
    const r = await bulk(sb, [null, 1, [], { email: 'a@example.com' }]);
    const job = await waitJob(sb, r.body.data.id);
    expect(job.failed).toBe(3);
    expect(job.errors.map((e: any) => e.index)).toEqual([0, 1, 2]);
  });

  test('§4 a row matching an existing contact by email or whatsapp updates it instead of duplicating', async () => {
    sb.control.configure({ job_rows_per_second: 100000 });
    await waitJob(sb, (await bulk(sb, [{ first_name: 'Ana', email: 'ana@example.com' }, { first_name: 'Bo', whatsapp: '+4915100000002' }])).body.data.id);
    const j = await waitJob(sb, (await bulk(sb, [{ first_name: 'Ana B.', email: 'ANA@example.com', whatsapp: '+4915100000001' }, { whatsapp: '+4915100000002', email: 'bo@example.com' }])).body.data.id);
    expect(j.failed).toBe(0);
    const list = (await call(sb, 'GET', '/contacts')).body.data;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ first_name: 'Ana B.', email: 'ANA@example.com', whatsapp: '+4915100000001' });
    expect(list[1]).toMatchObject({ first_name: 'Bo', email: 'bo@example.com', whatsapp: '+4915100000002' });
    expect((await ledger(sb)).contacts[0].writes.map((w: any) => w.action)).toEqual(['created', 'updated']);
    // a row matching two different contacts is refused
    const k = await waitJob(sb, (await bulk(sb, [{ email: 'bo@example.com', whatsapp: '+4915100000001' }])).body.data.id);
    expect(k.errors[0].error.code).toBe('request_refused');
  });

  test('§8 1000 contacts accepted; 1001 → 422 param contacts; outer-shape failures → 422 param contacts', async () => {
    expect((await bulk(sb, many(1000, (i) => ({ whatsapp: phone(i) })))).status).toBe(202);
    expectError(await bulk(sb, many(1001, (i) => ({ whatsapp: phone(i) }))), 422, 'validation_failed', 'contacts');
    expectError(await bulk(sb, []), 422, 'validation_failed', 'contacts');
    expectError(await bulk(sb, { email: 'a@example.com' }), 422, 'validation_failed', 'contacts');
    expectError(await call(sb, 'POST', '/contacts/bulk', { body: {} }), 422, 'validation_failed', 'contacts');
    expectError(await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }], mode: 'upsert' } }), 422, 'validation_failed', 'mode');
    expect((await ledger(sb)).jobs).toHaveLength(1);
  });

  test("§2 jobs are scoped to the account: another account's job id → 404", async () => {
    const id = (await bulk(sb, [{ email: 'a@example.com' }])).body.data.id;
    expectError(await call(sb, 'GET', `/jobs/${id}`, { key: 'sk_test_demo_other_account' }), 404, 'resource_not_found', 'id');
  });

  test('§4 jobs stay queued while job speed is 0 and complete after the speed is raised via /__sandbox/config', async () => {
    const id = (await bulk(sb, [{ email: 'a@example.com' }, { email: 'b@example.com' }])).body.data.id;
    clock.advance(3_600_000);
    expect((await call(sb, 'GET', `/jobs/${id}`)).body.data).toMatchObject({ status: 'queued', processed: 0 });
    await call(sb, 'POST', '/__sandbox/config', { key: null, body: { job_rows_per_second: 1000 } });
    clock.advance(2);
    const job = (await call(sb, 'GET', `/jobs/${id}`)).body.data;
    expect(job).toMatchObject({ status: 'completed', processed: 2 });
    expect(Date.parse(job.completed_at)).toBe(clock.now());
    expect((await ledger(sb)).contacts).toHaveLength(2);
  });
});

describe('§4 GET /contacts pagination', () => {
  // One read-only fixture for the suite: its tests only read, so their order does not matter.
  let sb: Sandbox;
  beforeAll(async () => {
    const clock = new VirtualClock();
    sb = await boot({ job_rows_per_second: 1_000_000 }, clock);
    await finishJob(sb, clock, (await bulk(sb, many(250, (i) => ({ first_name: `P${i}`, whatsapp: phone(i) })))).body.data.id);
  });
  afterAll(async () => {
    await sb.close();
  });

  test('§4 limit defaults to 20; meta has has_more and next_cursor', async () => {
    const r = await call(sb, 'GET', '/contacts');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(20);
    expect(r.body.meta).toEqual({ has_more: true, next_cursor: expect.any(String) });
    expect(r.body.data[0].first_name).toBe('P0');
  });

  test('§4 walking every page with starting_after = next_cursor yields every contact once, in creation order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const r: any = await call(sb, 'GET', `/contacts?limit=100${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      pages++;
      seen.push(...r.body.data.map((c: any) => c.first_name));
      if (!r.body.meta.has_more) {
        expect(r.body.meta.next_cursor).toBeNull();
        break;
      }
      cursor = r.body.meta.next_cursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `P${i}`));
  });

  test('§4 exact last page: has_more false when the page ends on the last row', async () => {
    const a = await call(sb, 'GET', '/contacts?limit=50');
    let cursor = a.body.meta.next_cursor;
    for (let i = 0; i < 3; i++) cursor = (await call(sb, 'GET', `/contacts?limit=50&starting_after=${cursor}`)).body.meta.next_cursor;
    const last = await call(sb, 'GET', `/contacts?limit=50&starting_after=${cursor}`);
    expect(last.body.data).toHaveLength(50);
    expect(last.body.meta).toEqual({ has_more: false, next_cursor: null });
  });

  test('§4 limit is capped at 100: 101, 0, -1, 1.5, abc → 422 param limit', async () => {
    for (const l of ['101', '0', '-1', '1.5', 'abc', '']) expectError(await call(sb, 'GET', `/contacts?limit=${l}`), 422, 'validation_failed', 'limit');
    expectError(await call(sb, 'GET', '/contacts?limit=2&limit=3'), 422, 'validation_failed', 'limit');
    expect((await call(sb, 'GET', '/contacts?limit=100')).body.data).toHaveLength(100);
    expect((await call(sb, 'GET', '/contacts?limit=1')).body.data).toHaveLength(1);
  });

  test("§4 unknown cursor or another account's cursor → 422 param starting_after", async () => {
    expectError(await call(sb, 'GET', '/contacts?starting_after=con_nope'), 422, 'validation_failed', 'starting_after');
    const cur = (await call(sb, 'GET', '/contacts')).body.meta.next_cursor;
    expectError(await call(sb, 'GET', `/contacts?starting_after=${cur}`, { key: 'sk_test_demo_other_account' }), 422, 'validation_failed', 'starting_after');
  });

  test('§4 unknown query parameters on the list are refused by name', async () => {
    expectError(await call(sb, 'GET', '/contacts?email=a@example.com'), 422, 'validation_failed', 'email');
  });

  test("§2 contacts are scoped: another account's list is empty", async () => {
    const r = await call(sb, 'GET', '/contacts', { key: 'sk_test_demo_other_account' });
    expect(r.body).toEqual({ data: [], meta: { has_more: false, next_cursor: null } });
  });
});

describe('§4 GET /contact-attributes and GET /account', () => {
  const sb = useSandbox();
  test('§4.5 GET /contact-attributes returns { data } without meta', async () => {
    const r = await call(sb, 'GET', '/contact-attributes');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: [
        { object: 'contact_attribute', key: 'city', label: 'City', type: 'text' },
        { object: 'contact_attribute', key: 'vip', label: 'VIP', type: 'boolean' },
      ],
    });
  });
  test('§2 GET /account reports rate_limit (and the sandbox fields)', async () => {
    const r = await call(sb, 'GET', '/account');
    expect(r.body).toEqual({
      data: { object: 'account', id: 'acc_demo', name: 'Demo Shop', status: 'active', plan: { name: 'growth', channels: ['whatsapp', 'email'], running: true }, credits: 10000, rate_limit: 600 },
    });
    expect((await call(sb, 'GET', '/account', { key: 'sk_test_demo_rate_limited' })).body.data.rate_limit).toBe(5);
  });
});
