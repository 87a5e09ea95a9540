/**
 * run() with an injected `core` and context (no module mocking), against a sandbox started here, over
 * real HTTP through the shared client's undici runtime.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { Agent } from 'undici';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { run } from '../../action/src/main.ts';
import type { ContextLike } from '../../action/src/types.ts';
import { context, fakeCore, RELEASE_EVENT, workspace } from './helpers.ts';
import { VirtualClock } from '../sandbox/virtual-clock.ts';
import type { FakeCore } from './helpers.ts';

const KEY = 'sk_test_demo_ok';
let sandbox: Sandbox;
let dispatcher: Agent;

beforeAll(async () => {
  // A 2 s window: an injected 429 also says Remaining: 0, and the client then paces to the window's end.
  sandbox = await start({ port: 0, config: { job_rows_per_second: 5000, window_seconds: 2 } });
  dispatcher = new Agent();
});
afterAll(async () => {
  await dispatcher.close();
  await sandbox.close();
});
beforeEach(() => sandbox.control.reset());

interface ActOptions {
  files?: Record<string, string>;
  ctx?: Partial<ContextLike>;
  payload?: Record<string, unknown>;
  key?: string;
  /** Another sandbox and the clock both it and the client run on. */
  on?: { sandbox: Sandbox; clock: VirtualClock };
}

async function act(inputs: Record<string, string>, options: ActOptions = {}): Promise<FakeCore> {
  const { dir } = workspace(options.files ?? {});
  const target = options.on?.sandbox ?? sandbox;
  const core = fakeCore({ 'api-key': options.key ?? KEY, 'base-url': target.url, ...inputs });
  const runtime = nodeRuntime(undiciTransport({ dispatcher }));
  const clock = options.on?.clock;
  await run({
    core,
    context: context(options.payload ?? RELEASE_EVENT, options.ctx),
    env: { GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'acme/shop', DEPLOY_ENV: 'production' },
    runtime: clock ? { ...runtime, now: clock.now, sleep: clock.sleep } : runtime,
  });
  return core;
}

const SEND = {
  mode: 'send',
  channel: 'email',
  to: 'ann@example.com, bob@example.com',
  subject: 'Released {{ event.release.tag_name }}',
  body: '{{ event.release.name }} is out: {{ event.release.html_url }} ({{ env.DEPLOY_ENV }})',
  'env-vars': 'DEPLOY_ENV',
};

test('send: renders the templates from the event, sends once per recipient, writes outputs and a masked summary', async () => {
  const core = await act(SEND);
  expect(core.failed).toBeUndefined();
  expect(core.secrets).toEqual([KEY]);
  expect(core.outputs.sent).toBe('2');
  expect(core.outputs.failed).toBe('0');
  expect(JSON.parse(core.outputs.ids)).toHaveLength(2);
  expect(core.outputs['idempotency-key']).toMatch(/^gha-[0-9a-f]{48}$/);
  const messages = ledgerRows(sandbox).messages;
  expect(messages.map((m) => m.to).sort()).toEqual(['ann@example.com', 'bob@example.com']);
  expect(messages[0].subject).toBe('Released v1.2.0');
  expect(messages[0].body).toBe('Spring release is out: https://github.com/acme/shop/releases/tag/v1.2.0 (production)');
  expect(core.summaryText).toContain('| `a***@e***.com` | ✅ sent | `msg_');
  expect(core.everything()).not.toContain('ann@example.com');
  expect(core.everything()).not.toContain(KEY);
  expect(core.logs.some((l) => /^Chunk 1\/1 \(2 recipients\): done in/.test(l))).toBe(true);
});

test('send: more than 100 recipients go out in chunks of 100, each with its own key, with progress lines', async () => {
  const to = Array.from({ length: 250 }, (_, i) => `user${i}@example.com`).join('\n');
  const core = await act({ ...SEND, to });
  expect(core.outputs.sent).toBe('250');
  expect(ledgerRows(sandbox).messages).toHaveLength(250);
  const keys = Object.keys(sandbox.control.summary().messages_by_idempotency_key);
  const results = JSON.parse(core.outputs.results) as { index: number; key: string }[];
  const chunkKeys = [0, 100, 200].map((i) => results[i].key);
  expect(new Set(chunkKeys).size).toBe(3);
  expect(chunkKeys[0]).toBe(core.outputs['idempotency-key']);
  expect(keys.map((k) => k.split('/')[1]).sort()).toEqual([...chunkKeys].sort());
  expect(core.logs.filter((l) => /^Chunk \d\/3 \(\d+ recipients\): done in/.test(l))).toHaveLength(3);
});

test('re-running the job (same run id, attempt 2) sends nothing twice; the summary says so', async () => {
  await act(SEND);
  const rerun = await act(SEND, { ctx: { runAttempt: 2 } });
  expect(rerun.failed).toBeUndefined();
  expect(rerun.outputs.sent).toBe('2');
  expect(ledgerRows(sandbox).messages).toHaveLength(2);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  expect(rerun.summaryText).toContain('♻️ already sent');
  expect(rerun.summaryText).toContain('2 sent (2 replayed: already done by an earlier attempt)');
  expect(JSON.parse(rerun.outputs.results)).toEqual([0, 1].map((index) => expect.objectContaining({ index, status: 'sent', replayed: true })));
  // A new run (another run id) is a new notification.
  await act(SEND, { ctx: { runId: 7654321 } });
  expect(ledgerRows(sandbox).messages).toHaveLength(4);
});

test('an unresolved placeholder fails the step naming it, sends nothing, and still writes outputs', async () => {
  const core = await act({ ...SEND, body: 'Released {{ event.release.tag }}' });
  expect(core.failed).toBe('Input "body": unresolved placeholder {{ event.release.tag }} at line 1, column 13: "tag" is not defined');
  expect(core.outputs.sent).toBe('0');
  expect(core.outputs.results).toBe('[]');
  expect(ledgerRows(sandbox).requests).toBe(0);
  expect(core.summaryText).toContain('[!CAUTION]');
});

test('recipients from a file: the column named after the channel, duplicates once', async () => {
  const core = await act(
    { mode: 'send', channel: 'whatsapp', to: '+4915100000001', 'to-file': 'team.csv', body: 'Deploy of {{ run.sha_short }} failed' },
    { files: { 'team.csv': 'first_name,whatsapp,email\nAnn,+4915100000001,\nBob,+4915100000002,bob@example.com\nCid,,cid@example.com\n' } },
  );
  expect(core.failed).toBeUndefined();
  expect(ledgerRows(sandbox).messages.map((m) => m.to).sort()).toEqual(['+4915100000001', '+4915100000002']);
  expect(core.logs).toContain('team.csv: 1 row(s) have no "to" or "whatsapp" value and are skipped.');
  expect(core.everything()).not.toContain('+4915100000002');
});

// Rows are data: Cid's body is sent as written; rows without a body or subject get the input templates.
const BATCH_CSV = 'channel,to,subject,body,name\nemail,ann@example.com,,,Ann\nwhatsapp,+4915100000001,Not allowed,Hello,Bob\n\nemail,cid@example.com,,Plain {{ row.name }},Cid\n';
const BATCH_TEMPLATES = { subject: 'Hi {{ row.name }}', body: 'Release {{ event.release.tag_name }}' };

test('batch: rows from a CSV, row variables, an element refused by the service annotated at its line', async () => {
  const core = await act({ mode: 'batch', file: 'data/messages.csv', ...BATCH_TEMPLATES }, { files: { 'data/messages.csv': BATCH_CSV } });
  expect(core.outputs.sent).toBe('2');
  expect(core.outputs.failed).toBe('1');
  expect(core.failed).toMatch(/1 message\(s\) were refused/);
  const ann = core.annotations.find((a) => a.level === 'error');
  expect(ann?.properties).toMatchObject({ file: 'data/messages.csv', startLine: 3 });
  expect(ann?.message).toContain('validation_failed');
  expect(ann?.message).toContain('subject');
  const results = JSON.parse(core.outputs.results) as { index: number; line: number; status: string; error?: { code: string; param?: string } }[];
  expect(results.map((r) => [r.line, r.status])).toEqual([
    [2, 'sent'],
    [3, 'failed'],
    [5, 'sent'],
  ]);
  expect(results[1].error).toMatchObject({ code: 'validation_failed', param: 'subject' });
  const ledger = ledgerRows(sandbox).messages;
  expect(ledger.find((m) => m.to === 'ann@example.com')).toMatchObject({ subject: 'Hi Ann', body: 'Release v1.2.0' });
  expect(ledger.find((m) => m.to === 'cid@example.com')).toMatchObject({ subject: 'Hi Cid', body: 'Plain {{ row.name }}' });
  expect(core.summaryText).toContain('| Line (data/messages.csv) |');
});

test('batch with fail-on-error false: the refused element is a warning and the step succeeds', async () => {
  const core = await act({ mode: 'batch', file: 'messages.csv', 'fail-on-error': 'false', ...BATCH_TEMPLATES }, { files: { 'messages.csv': BATCH_CSV } });
  expect(core.failed).toBeUndefined();
  expect(core.annotations.some((a) => a.level === 'warning' && a.properties?.startLine === 3)).toBe(true);
  expect(core.outputs.failed).toBe('1');
});

test('batch: invalid rows are annotated at their lines and nothing is sent', async () => {
  const yaml = 'messages:\n  - channel: email\n    to: ann@example.com\n    body: ok\n  - channel: email\n    body: no recipient\n  - channel: email\n    to: bob@example.com\n';
  const core = await act({ mode: 'batch', file: 'm.yaml' }, { files: { 'm.yaml': yaml } });
  expect(core.failed).toMatch(/^Input "file": 2 of 3 message\(s\) in m\.yaml are invalid \(first, m\.yaml:5: missing to\)/);
  expect(core.annotations.map((a) => [a.level, a.properties?.startLine])).toEqual([
    ['error', 5],
    ['error', 7],
  ]);
  expect(core.annotations[1].message).toContain('missing body');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

const CONTACTS = 'first_name,email,whatsapp,vip\nAnn,ann@example.com,,true\nBob,,+4915100000002,false\nBad,not-an-email,,\nDee,dee@example.com,,\n';

test('sync-contacts: imports, waits, reports the bad row at its line; a re-run replays, a new run applies the file', async () => {
  const files = { 'contacts.csv': CONTACTS };
  const core = await act({ mode: 'sync-contacts', file: 'contacts.csv' }, { files });
  expect(core.outputs['import-status']).toBe('completed');
  expect(core.outputs.queued).toBe('4');
  expect(core.outputs.imported).toBe('3');
  expect(core.outputs.sent).toBe('0');
  expect(core.outputs.failed).toBe('1');
  expect(JSON.parse(core.outputs['import-job-ids'])).toHaveLength(1);
  expect(core.failed).toMatch(/1 contact row\(s\) failed/);
  const bad = core.annotations.find((a) => a.level === 'error');
  expect(bad?.properties).toMatchObject({ file: 'contacts.csv', startLine: 4 });
  expect(bad?.message).toContain('validation_failed');
  expect(ledgerRows(sandbox).contacts).toHaveLength(3);
  expect(core.summaryText).toContain('| 4 | `n***l` | ❌ failed |');
  expect(core.everything()).not.toContain('ann@example.com');

  // A re-run of the same run (attempt 2): the import is replayed, no new job.
  const again = await act({ mode: 'sync-contacts', file: 'contacts.csv', 'fail-on-error': 'false' }, { files, ctx: { runAttempt: 2 } });
  expect(again.outputs['idempotency-key']).toBe(core.outputs['idempotency-key']);
  expect(again.outputs['import-job-ids']).toBe(core.outputs['import-job-ids']);
  expect(ledgerRows(sandbox).jobs).toHaveLength(1);
  expect(again.summaryText).toContain('nothing was imported twice');
  expect(again.failed).toBeUndefined();
  // A new run of the workflow applies the file again (the service may have changed since).
  const next = await act({ mode: 'sync-contacts', file: 'contacts.csv', 'fail-on-error': 'false' }, { files, ctx: { runId: 999 } });
  expect(next.outputs['idempotency-key']).not.toBe(core.outputs['idempotency-key']);
  expect(ledgerRows(sandbox).jobs).toHaveLength(2);
});

test('sync-contacts: more than 1000 contacts make jobs of ≤1000; no wait leaves them queued', async () => {
  const rows = Array.from({ length: 2300 }, (_, i) => `C${i},c${i}@example.com`).join('\n');
  const core = await act({ mode: 'sync-contacts', file: 'big.csv', wait: 'false' }, { files: { 'big.csv': `first_name,email\n${rows}\n` } });
  expect(core.failed).toBeUndefined();
  expect(core.outputs['import-status']).toBe('queued');
  expect(JSON.parse(core.outputs['import-job-ids'])).toHaveLength(3);
  expect(ledgerRows(sandbox).jobs.map((j) => j.total)).toEqual([1000, 1000, 300]);
  expect(core.summaryText).toContain('| 1002–2001 |');

  // job mode: wait for one of them by id.
  const jobId = (JSON.parse(core.outputs['import-job-ids']) as string[])[2];
  const job = await act({ mode: 'import-status', 'import-job-ids': jobId, 'wait-timeout': '30' });
  expect(job.failed).toBeUndefined();
  expect(job.outputs['import-status']).toBe('completed');
  expect(job.outputs.imported).toBe('300');
});

test('import-status mode: an unknown id and a malformed id fail naming import-job-ids', async () => {
  const missing = await act({ mode: 'import-status', 'import-job-ids': 'job_doesnotexist' });
  expect(missing.failed).toMatch(/^Input "import-job-ids": resource_not_found/);
  const malformed = await act({ mode: 'import-status', 'import-job-ids': 'msg_123' });
  expect(malformed.failed).toBe('Input "import-job-ids": must be import job ids (job_…), got "msg_123".');
});

test('an authentication failure fails the step even with fail-on-error false, and never shows the key', async () => {
  const core = await act({ ...SEND, 'fail-on-error': 'false' }, { key: 'sk_test_demo_revoked' });
  expect(core.failed).toMatch(/^api_key_revoked: .*issue a new key/);
  expect(core.outputs.failed).toBe('2');
  expect(core.everything()).not.toContain('sk_test_demo_revoked');
});

test('dry run: validates and renders, writes the summary, calls nothing (no key needed)', async () => {
  const core = await act({ ...SEND, 'dry-run': 'true', 'api-key': '' }, { key: '' });
  expect(core.failed).toBeUndefined();
  expect(core.summaryText).toContain('(dry run: nothing was sent)');
  expect(core.summaryText).toContain('**Subject:** Released v1.2.0');
  expect(core.summaryText).toContain('🧪 dry run');
  expect(core.outputs['idempotency-key']).toMatch(/^gha-/);
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('a 429 storm is ridden out by the client; the summary counts the waits (virtual clock)', async () => {
  const clock = new VirtualClock(Date.UTC(2030, 0, 1, 0, 0, 0, 250));
  const stormy = await start({ port: 0, config: { window_seconds: 2 }, clock: clock.now });
  try {
    stormy.control.addFault({ route: 'POST /v1/messages', kind: 'rate_limit_429', count: 3, retry_after: 1 });
    const started = clock.now();
    const core = await act(SEND, { on: { sandbox: stormy, clock } });
    expect(core.failed).toBeUndefined();
    expect(core.outputs.sent).toBe('2');
    expect(ledgerRows(stormy).messages).toHaveLength(2);
    expect(core.logs.filter((l) => l.includes('the service answered 429 with Retry-After'))).toHaveLength(3);
    // Each 429 was waited out for its Retry-After of 1 s (plus at most a fair slot of the 600-per-2 s
    // window as jitter), and nothing else was waited: the summary reports exactly that.
    expect(clock.sleeps).toHaveLength(3);
    for (const ms of clock.sleeps) expect(ms).toBeGreaterThanOrEqual(1000);
    for (const ms of clock.sleeps) expect(ms).toBeLessThanOrEqual(1000 + 2000 / 600);
    expect(clock.now() - started).toBeCloseTo(clock.sleeps.reduce((a, b) => a + b, 0), 3);
    expect(core.summaryText).toContain('Waited 3 time(s) for the rate window, 3.0 s in all.');
  } finally {
    await stormy.close();
  }
});
