/**
 * Smoke suite: the committed bundle, run by Node 24 as the runner runs it, against a sandbox started
 * here. Every mode, dry run, a re-run, bad rows, an auth failure and a 429 storm; exit codes, outputs,
 * summary, annotations, and the API key nowhere but in the ::add-mask:: command.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { existsSync } from 'node:fs';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { DIST, leaks, runStep } from './runner.ts';
import type { StepOptions, StepResult } from './runner.ts';

const KEY = 'sk_test_demo_ok';
let sandbox: Sandbox;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
  sandbox = await start({ port: 0, config: { job_rows_per_second: 5000, window_seconds: 2 } });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

async function step(inputs: Record<string, string>, options: StepOptions & { key?: string } = {}): Promise<StepResult> {
  const key = options.key ?? KEY;
  const result = await runStep({ 'api-key': key, 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, ...options });
  expect(leaks(result, key)).toEqual([]);
  if (key) expect(result.stdout.split('\n').filter((l) => l.includes(key))).toEqual([`::add-mask::${key}`]);
  return result;
}

const CONTACTS = 'first_name,email,whatsapp\nAnn,ann@example.com,+4915100000001\nBob,bob@example.com,\n';
const SEND = {
  mode: 'send',
  channel: 'email',
  'to-file': 'contacts.csv',
  subject: '{{ repo.name }} {{ event.release.tag_name }} is out',
  body: '{{ event.release.name }}: {{ event.release.html_url }} (run {{ run.url }})',
};

test('sync-contacts then send to those contacts; a re-run (attempt 2) duplicates nothing', async () => {
  const sync = await step({ mode: 'sync-contacts', file: 'contacts.csv' }, { files: { 'contacts.csv': CONTACTS } });
  expect(sync.stderr).toBe('');
  expect(sync.code).toBe(0);
  expect(sync.outputs['import-status']).toBe('completed');
  expect(sync.outputs.imported).toBe('2');
  expect(sync.outputs.sent).toBe('0');
  expect(ledgerRows(sandbox).contacts).toHaveLength(2);
  expect(sync.summary).toContain('### Messaging Service — sync-contacts');

  const send = await step(SEND, { workspaceDir: sync.workspace });
  expect(send.code).toBe(0);
  expect(send.outputs.sent).toBe('2');
  expect(JSON.parse(send.outputs.ids)).toHaveLength(2);
  const [first] = ledgerRows(sandbox).messages;
  expect(first.subject).toBe('shop v1.2.0 is out');
  expect(first.body).toBe('Spring release: https://github.com/acme/shop/releases/tag/v1.2.0 (run https://github.com/acme/shop/actions/runs/4242)');
  expect(send.summary).toContain('`a***@e***.com` | ✅ sent');
  expect(send.stdout).toContain('Chunk 1/1 (2 recipients): done in');
  for (const text of [send.stdout, send.summary, send.outputs.results]) expect(text).not.toContain('ann@example.com');

  const rerun = await step(SEND, { workspaceDir: sync.workspace, runAttempt: '2' });
  expect(rerun.code).toBe(0);
  expect(rerun.outputs['idempotency-key']).toBe(send.outputs['idempotency-key']);
  expect(rerun.outputs.ids).toBe(send.outputs.ids);
  expect(ledgerRows(sandbox).messages).toHaveLength(2);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  expect(rerun.stdout).toContain('replayed (already done by an earlier attempt)');
  expect(rerun.summary).toContain('2 sent (2 replayed: already done by an earlier attempt)');
});

test('batch from a JSON file of 1,200 messages: three calls of ≤500', async () => {
  const messages = Array.from({ length: 1200 }, (_, i) => ({ channel: 'email', to: `u${i}@example.com`, n: i }));
  const r = await step({ mode: 'batch', file: 'out/messages.json', body: 'Build {{ run.number }} #{{ row.n }}' }, { files: { 'out/messages.json': JSON.stringify({ messages }, null, 2) } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('1200');
  expect(ledgerRows(sandbox).messages).toHaveLength(1200);
  expect(ledgerRows(sandbox).messages[0].body).toBe('Build 17 #0');
  expect(r.stdout.match(/^Chunk \d\/3 \((500|200) messages\): done in/gm)).toHaveLength(3);
  expect(r.summary.length).toBeLessThan(300 * 1024);
});

test('import-status mode reads an import job by id', async () => {
  const sync = await step({ mode: 'sync-contacts', file: 'c.csv', wait: 'false' }, { files: { 'c.csv': CONTACTS } });
  expect(sync.outputs['import-status']).toBe('queued');
  const [jobId] = JSON.parse(sync.outputs['import-job-ids']) as string[];
  const job = await step({ mode: 'import-status', 'import-job-ids': jobId, 'wait-timeout': '30' });
  expect(job.code).toBe(0);
  expect(job.outputs['import-status']).toBe('completed');
  expect(job.outputs['import-job-ids']).toBe(JSON.stringify([jobId]));
});

test('dry run: renders, writes the summary, calls nothing', async () => {
  const r = await step({ ...SEND, 'dry-run': 'true' }, { files: { 'contacts.csv': CONTACTS } });
  expect(r.code).toBe(0);
  expect(r.summary).toContain('(dry run: nothing was sent)');
  expect(r.summary).toContain('**Subject:** shop v1.2.0 is out');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('bad rows: annotated at file and line, the step fails, outputs still written', async () => {
  const r = await step({ mode: 'sync-contacts', file: 'data/contacts.csv' }, { files: { 'data/contacts.csv': `${CONTACTS}Bad,not-an-email,\nEve,,+49 151\n` } });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error title=Messaging Service,file=data\/contacts\.csv,line=4::Contact not imported \(job job_\w+\): validation_failed/m);
  expect(r.stdout).toMatch(/^::error title=Messaging Service,file=data\/contacts\.csv,line=5::/m);
  expect(r.stdout).toMatch(/^::error::2 contact row\(s\) failed/m);
  expect(r.outputs.failed).toBe('2');
  expect(r.outputs.imported).toBe('2');
  expect(r.summary).toContain('❌ failed');
});

test('an invalid input fails naming it, before any call', async () => {
  const r = await step({ ...SEND, body: 'Hi {{ event.release.tagname }}' }, { files: { 'contacts.csv': CONTACTS } });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error::Input "body": unresolved placeholder \{\{ event\.release\.tagname \}\}/m);
  expect(r.outputs.sent).toBe('0');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('an authentication failure fails the step with the remedy; the key is nowhere', async () => {
  const r = await step({ ...SEND, 'fail-on-error': 'false' }, { files: { 'contacts.csv': CONTACTS }, key: 'sk_test_demo_expired' });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error::api_key_expired: .*issue a new key/m);
  expect(r.outputs.failed).toBe('2');
});

test('a 429 storm on the batch route is ridden out by the client', async () => {
  sandbox.control.addFault({ route: 'POST /v1/messages/batch', kind: 'rate_limit_429', count: 4, retry_after: 1 });
  const messages = Array.from({ length: 600 }, (_, i) => ({ channel: 'email', to: `u${i}@example.com`, body: `n${i}` }));
  const r = await step({ mode: 'batch', file: 'm.json' }, { files: { 'm.json': JSON.stringify(messages) } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('600');
  expect(ledgerRows(sandbox).messages).toHaveLength(600);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
  expect(r.stdout).toContain('the service answered 429 with Retry-After');
  expect(r.summary).toMatch(/Waited \d+ time\(s\) for the rate window/);
}, 60000);
