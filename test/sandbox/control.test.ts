/** The /__sandbox control routes, start() options, the demo config and the CLI. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoConfig, demoKeys, start } from '../../sandbox/server.ts';
import { call, em, expectError, ledger, summary, wa, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const clock = new VirtualClock();
const sb = useSandbox({ job_rows_per_second: 0 }, { clock });

test('ledger: messages, jobs, contacts and the request count', async () => {
  const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [wa(), em()] } });
  const j = await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }] }, idem: 'job-key' });
  await call(sb, 'GET', '/nope', { key: null });
  const l = await ledger(sb);
  expect(Object.keys(l).sort()).toEqual(['contacts', 'jobs', 'messages', 'requests']);
  expect(l.requests).toBe(3);
  expect(l.messages.map((m: any) => m.id)).toEqual(r.body.data.map((d: any) => d.id));
  expect(l.messages[0]).toMatchObject({ account: 'acc_demo', idempotency_key: null, route: 'POST /messages/batch', element_index: 0, channel: 'whatsapp' });
  expect(l.jobs).toEqual([{ ...j.body.data, account: 'acc_demo', key_id: 'sk_test_demo_ok', idempotency_key: 'job-key', request_id: j.headers['x-request-id'] }]);
  expect(l.contacts).toEqual([]);
});

test('ledger reads advance jobs (progress is computed when observed)', async () => {
  await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }, { email: 'b@example.com' }] } });
  sb.control.configure({ job_rows_per_second: 1_000_000 });
  clock.advance(1);
  const l = await ledger(sb);
  expect(l.jobs[0]).toMatchObject({ status: 'completed', processed: 2 });
  expect(l.contacts.map((c: any) => c.email)).toEqual(['a@example.com', 'b@example.com']);
  expect(l.contacts[0]).toMatchObject({ account: 'acc_demo', job_id: l.jobs[0].id, writes: [{ job_id: l.jobs[0].id, index: 0, action: 'created' }] });
});

test('summary: totals, per idempotency key, duplicates', async () => {
  await call(sb, 'POST', '/messages/batch', { body: { messages: [wa(), wa()] }, idem: 'a' });
  await call(sb, 'POST', '/messages/batch', { body: { messages: [em()] }, idem: 'b' });
  const s = await summary(sb);
  expect(s).toMatchObject({ messages: 3, messages_by_idempotency_key: { 'acc_demo/a': 2, 'acc_demo/b': 1 }, duplicates_detected: 1, jobs: 0, contacts: 0 });
  expect(s.duplicates).toEqual([{ account: 'acc_demo', channel: 'whatsapp', to: '+4915112345678', subject: null, body: 'hello', count: 2, ids: expect.any(Array) }]);
});

test('reset: state, config patches and faults go back to the loaded config', async () => {
  await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] }, idem: 'r' });
  await call(sb, 'POST', '/__sandbox/config', { key: null, body: { accounts: [{ id: 'acc_demo', credits: 3 }] } });
  sb.control.addFault({ route: 'GET /v1/account', kind: 'error_500_before_commit' });
  const r = await call(sb, 'POST', '/__sandbox/reset', { key: null });
  expect(r.status).toBe(200);
  expect((await summary(sb)).messages).toBe(0);
  expect(sb.control.faults()).toEqual([]);
  const acc = await call(sb, 'GET', '/account');
  expect(acc.body.data.credits).toBe(10000);
  const again = await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] }, idem: 'r' });
  expect(again.headers['idempotent-replay']).toBeUndefined();
});

test('config: GET shows the live config; POST merges; bad patches are refused with the envelope', async () => {
  await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] } });
  const c = await call(sb, 'GET', '/__sandbox/config', { key: null });
  expect(c.body.accounts.find((a: any) => a.id === 'acc_demo').credits).toBe(9999);
  const p = await call(sb, 'POST', '/__sandbox/config', { key: null, body: { window_seconds: 5, accounts: [{ id: 'acc_new', name: 'New', credits: 1 }], keys: [{ key: 'sk_new', account: 'acc_new', scopes: ['messages:write'] }] } });
  expect(p.status).toBe(200);
  expect(p.body.window_seconds).toBe(5);
  const r = await call(sb, 'POST', '/messages/batch', { key: 'sk_new', body: { messages: [wa()] } });
  expect(r.status).toBe(200);
  expect(Number(r.headers['x-ratelimit-reset']) % 5).toBe(0);
  expectError(await call(sb, 'POST', '/__sandbox/config', { key: null, body: { window_seconds: 0 } }), 400, 'validation_failed');
  expectError(await call(sb, 'POST', '/__sandbox/config', { key: null, body: { keys: [{ key: 'k', account: 'acc_missing' }] } }), 400, 'validation_failed');
  expectError(await call(sb, 'POST', '/__sandbox/config', { key: null, body: { bogus: 1 } }), 400, 'validation_failed');
  expectError(await call(sb, 'POST', '/__sandbox/config', { key: null, raw: '{', headers: { 'content-type': 'application/json' } }), 400, 'request_refused');
  expect((await call(sb, 'GET', '/__sandbox/config', { key: null })).body.window_seconds).toBe(5);
});

test('control: unknown route 404 and wrong method 405, with the envelope', async () => {
  expectError(await call(sb, 'GET', '/__sandbox/nope', { key: null }), 404, 'resource_not_found');
  expectError(await call(sb, 'POST', '/__sandbox/ledger', { key: null }), 405, 'method_not_allowed');
});

test('start(): config from a JSON file, extends_demo false, bad config throws', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-'));
  const file = join(dir, 'c.json');
  writeFileSync(file, JSON.stringify({ extends_demo: false, accounts: [{ id: 'acc_f', name: 'F', credits: 1 }], keys: [{ key: 'sk_f', account: 'acc_f', scopes: ['messages:write'], label: 'f' }] }));
  try {
    const s2 = await start({ port: 0, config: file });
    try {
      expect((await call(s2, 'GET', '/account', { key: 'sk_f' })).body.data.id).toBe('acc_f');
      expectError(await call(s2, 'GET', '/account'), 401, 'invalid_api_key');
    } finally {
      await s2.close();
    }
    await expect(start({ port: 0, config: { window_seconds: -1 } })).rejects.toThrow(/window_seconds/);
    await expect(start({ port: 0, config: join(dir, 'missing.json') })).rejects.toThrow(/cannot read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('demo config: a key for every documented failure, each listed in the demo keys table', () => {
  const keys = demoKeys.map((k) => k.key);
  expect(keys).toEqual(demoConfig.keys.map((k) => k.key));
  for (const k of ['sk_test_demo_ok', 'sk_test_demo_no_messages_write', 'sk_test_demo_no_contacts_write', 'sk_test_demo_expired', 'sk_test_demo_revoked', 'sk_test_demo_plan_expired', 'sk_test_demo_suspended', 'sk_test_demo_no_whatsapp', 'sk_test_demo_no_credits', 'sk_test_demo_no_sender', 'sk_test_demo_rate_limited', 'sk_test_demo_other_account'])
    expect(keys).toContain(k);
  expect(demoKeys.every((k) => k.demonstrates.length > 0)).toBe(true);
});

test('CLI: starts, prints the base URL and the demo keys, serves, stops on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', '0'], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no banner: ${out}`)), 10000);
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening: (http:\/\/\S+\/v1)/.exec(out);
      if (m && out.includes('sk_test_demo_other_account')) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
  });
  for (const k of demoKeys) expect(out).toContain(k.key);
  const r = await fetch(`${url}/account`, { headers: { authorization: 'Bearer sk_test_demo_ok' } });
  expect(r.status).toBe(200);
  const code = await new Promise<number | null>((resolve) => {
    child.on('exit', (c) => resolve(c));
    child.kill('SIGTERM');
  });
  expect(code).toBe(0);
});
