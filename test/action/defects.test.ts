/**
 * The defects of the action issue, each run as the runner runs the committed bundle (action/dist/index.js
 * under Node 24, INPUT_ and GITHUB_ variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files) against a sandbox
 * started here. Each of these failed on the bundle before the fix.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { DIST, leaks, runStep } from './runner.ts';
import type { StepOptions, StepResult } from './runner.ts';

const KEY = 'sk_test_demo_ok';
let sandbox: Sandbox;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
  const contact_attributes = [
    { key: 'city', label: 'City', type: 'text' },
    { key: 'vip', label: 'VIP', type: 'boolean' },
    { key: 'score', label: 'Score', type: 'number' },
  ];
  sandbox = await start({ port: 0, config: { job_rows_per_second: 20000, window_seconds: 2, accounts: [{ id: 'acc_demo', contact_attributes }] } as never });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

async function step(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  const result = await runStep({ 'api-key': KEY, 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, ...options });
  expect(leaks(result, KEY)).toEqual([]);
  return result;
}

/** `::error`/`::warning` command lines of stdout, as the runner would read them. */
const commands = (r: StepResult, kind: string) => r.stdout.split('\n').filter((l) => l.startsWith(`::${kind} `) || l.startsWith(`::${kind}::`));

describe('rows read at the right line', () => {
  test('job mode with file: row errors of the second job name their own lines', async () => {
    const rows = Array.from({ length: 1005 }, (_, i) => (i === 1002 ? 'Bad,not-an-email' : `C${i},c${i}@example.com`));
    const files = { 'contacts.csv': `first_name,email\n${rows.join('\n')}\n` };
    const sync = await step({ mode: 'sync-contacts', file: 'contacts.csv', wait: 'false' }, { files });
    expect(JSON.parse(sync.outputs['import-job-ids'])).toHaveLength(2);
    const job = await step({ mode: 'import-status', 'import-job-ids': sync.outputs['import-job-ids'], file: 'contacts.csv', 'wait-timeout': '60' }, { workspaceDir: sync.workspace });
    expect(job.code).toBe(1);
    expect(commands(job, 'error')[0]).toMatch(/^::error title=Messaging Service,file=contacts\.csv,line=1004::Contact not imported \(job job_\w+\): validation_failed/);
    expect(job.outputs.imported).toBe('1004');

    // Only the second job, with the whole file: its 5 rows are not the file's 1,005, so no line is blamed.
    const second = (JSON.parse(sync.outputs['import-job-ids']) as string[])[1]!;
    const alone = await step({ mode: 'import-status', 'import-job-ids': second, file: 'contacts.csv', 'wait-timeout': '60' }, { workspaceDir: sync.workspace });
    expect(alone.stdout).toContain('Row errors are not placed at lines of contacts.csv: its 1005 row(s) are not the 5 contact(s) of these jobs');
    expect(commands(alone, 'error')[0]).toMatch(/^::error title=Messaging Service::Contact not imported \(job job_\w+, element 2\): validation_failed/);
  }, 60000);

  test('send with to-file: a refused recipient is annotated at its line of the file', async () => {
    const r = await step({ mode: 'send', channel: 'email', 'to-file': 'lists/team.txt', body: 'hi' }, { files: { 'lists/team.txt': '# team\nann@example.com\n\nnot-an-email\n' } });
    expect(r.code).toBe(1);
    expect(commands(r, 'error')[0]).toMatch(/^::error title=Messaging Service,file=lists\/team\.txt,line=4::Recipient refused: /);
    expect((JSON.parse(r.outputs.results) as { line: number; status: string }[]).map((x) => [x.line, x.status])).toEqual([
      [2, 'sent'],
      [4, 'failed'],
    ]);
  });

  test('CSV with CRLF line ends and CRLF inside quoted cells: the bad row is annotated at its own line', async () => {
    const csv = 'first_name,email\r\n"Ann\r\nA.",ann@example.com\r\n"Bob\r\n\r\nB.",bob@example.com\r\nBad,not-an-email\r\n';
    const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': csv } });
    expect(commands(r, 'error')[0]).toMatch(/^::error title=Messaging Service,file=c\.csv,line=7::Contact not imported/);
    expect(ledgerRows(sandbox).contacts.map((c) => c.first_name).sort()).toEqual(['Ann\nA.', 'Bob\n\nB.']);
  });
});

describe('templates', () => {
  test('an unclosed placeholder is refused with its position; nothing is sent', async () => {
    const r = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', body: 'Hi\nRelease {{ event.release.tag_name } is out' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::Input "body": unclosed placeholder at line 2, column 9/m);
    expect(ledgerRows(sandbox).requests).toBe(0);
  });

  test('templates see only the env names listed in env-vars, never INPUT_* (the API key)', async () => {
    const leak = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', body: 'key {{ env.[INPUT_API-KEY] }}' });
    expect(leak.code).toBe(1);
    expect(leak.stdout).toMatch(/^::error::Input "body": unresolved placeholder \{\{ env\.\[INPUT_API-KEY\] \}\}/m);
    const unlisted = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', body: 'to {{ env.DEPLOY_ENV }}' }, { env: { DEPLOY_ENV: 'production' } });
    expect(unlisted.code).toBe(1);
    expect(ledgerRows(sandbox).requests).toBe(0);
    const listed = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', body: 'to {{ env.DEPLOY_ENV }}', 'env-vars': 'DEPLOY_ENV' }, { env: { DEPLOY_ENV: 'production' } });
    expect(listed.code).toBe(0);
    expect(ledgerRows(sandbox).messages.map((m) => m.body)).toEqual(['to production']);
  });

  test('batch: data rows are data (sent as written); the subject default goes only to channels that take one', async () => {
    const csv = 'channel,to,name,body\nemail,ann@example.com,Ann,\nwhatsapp,+4915100000001,Bob,\nemail,cid@example.com,Cid,Literal {{ run.id }}\n';
    const r = await step({ mode: 'batch', file: 'm.csv', subject: 'Hi {{ row.name }}', body: 'Hello {{ row.name }}' }, { files: { 'm.csv': csv } });
    expect(r.code).toBe(0);
    expect(r.outputs.sent).toBe('3');
    const byTo = Object.fromEntries(ledgerRows(sandbox).messages.map((m) => [m.to, m]));
    expect(byTo['ann@example.com']).toMatchObject({ subject: 'Hi Ann', body: 'Hello Ann' });
    expect(byTo['+4915100000001']).toMatchObject({ subject: null, body: 'Hello Bob' });
    expect(byTo['cid@example.com']).toMatchObject({ subject: 'Hi Cid', body: 'Literal {{ run.id }}' });
  });
});

describe('files read strictly', () => {
  test('a Latin-1 file is refused naming the file and its first bad line; UTF-16 and UTF-8 BOMs are read', async () => {
    const latin1 = Buffer.from('first_name,email\nAnn,ann@example.com\nJos\u00e9,jose@example.com\n', 'latin1');
    const r = await step({ mode: 'sync-contacts', file: 'data/c.csv' }, { files: { 'data/c.csv': latin1 } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error title=Cannot read file,file=data\/c\.csv,line=3::data\/c\.csv:3: is not UTF-8/m);
    expect(ledgerRows(sandbox).requests).toBe(0);

    const text = 'first_name,email\nJosé,jose@example.com\n';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first_name,email\nZoë,zoe@example.com\n')]);
    const ok = await step({ mode: 'sync-contacts', file: 'a.csv' }, { files: { 'a.csv': utf16 } });
    expect(ok.code).toBe(0);
    const ok8 = await step({ mode: 'sync-contacts', file: 'b.csv' }, { files: { 'b.csv': utf8 } });
    expect(ok8.code).toBe(0);
    expect(ledgerRows(sandbox).contacts.map((c) => c.first_name).sort()).toEqual(['José', 'Zoë']);
  });

  test.each([
    ['first_name,email,Email\nAnn,ann@example.com,a@example.com\n', 'columns "email" and "Email" differ only in case'],
    ['email,first_name,email\nann@example.com,Ann,b@example.com\n', 'column "email" appears twice'],
    ['email,__proto__\nann@example.com,x\n', 'column "__proto__" is not allowed (a prototype name)'],
  ])('duplicate and case-variant columns are refused by name: %j', async (csv, message) => {
    const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': csv } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`::error::Input "file": c.csv:1: ${message}`);
    expect(ledgerRows(sandbox).requests).toBe(0);
  });

  test('typed attributes are converted by the types GET /contact-attributes reports (CSV and YAML)', async () => {
    const csv = 'first_name,email,vip,score,city\nAnn,ann@example.com,yes,42,true\nBob,bob@example.com,false,3.5,Berlin\nCid,cid@example.com,true,lots,\n';
    const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': csv } });
    expect(r.outputs.imported).toBe('2');
    expect(r.outputs.failed).toBe('1');
    expect(commands(r, 'error')[0]).toMatch(/^::error title=Messaging Service,file=c\.csv,line=4::Contact not sent: attribute "score" takes a number, got "lots"/);
    const yaml = 'contacts:\n  - email: dee@example.com\n    score: 7\n    vip: "TRUE"\n';
    const y = await step({ mode: 'sync-contacts', file: 'c.yaml' }, { files: { 'c.yaml': yaml } });
    expect(y.code).toBe(0);
    const attrs = Object.fromEntries(ledgerRows(sandbox).contacts.map((c) => [c.email, c.attributes]));
    expect(attrs['ann@example.com']).toEqual({ vip: true, score: 42, city: 'true' });
    expect(attrs['bob@example.com']).toEqual({ vip: false, score: 3.5, city: 'Berlin' });
    expect(attrs['dee@example.com']).toEqual({ vip: true, score: 7 });
  });
});

describe('what is shown', () => {
  test('phone numbers and e-mails are masked in error.param, row values, results and summary', async () => {
    const csv = 'first_name,email,score,bob@example.com\nAnn,ann@example.com,+4915112345678,x\n';
    const r = await step({ mode: 'sync-contacts', file: 'c.csv', 'fail-on-error': 'false' }, { files: { 'c.csv': csv } });
    const shown = [r.stdout, r.summary, ...Object.values(r.outputs), readFileSync(r.outputs['results-file'], 'utf8')].join('\n');
    for (const pii of ['bob@example.com', 'ann@example.com', '+4915112345678', '4915112345678']) expect(shown).not.toContain(pii);
    expect(shown).toContain('b***@e***.com');
  });

  test('an input carrying a line break and a workflow command is logged as one plain line', async () => {
    const r = await step({ mode: 'send', channel: 'email\n::warning::injected', to: 'ann@example.com', body: 'hi' });
    expect(r.stdout).not.toMatch(/^::warning::injected/m);
    expect(r.stdout).toContain('⏎');
  });

  test('field names cannot inject workflow commands; values are escaped in annotations', async () => {
    const csv = 'channel,to,body,"x\n::warning::injected"\nemail,ann@example.com,hi,1\n';
    const r = await step({ mode: 'batch', file: 'm.csv' }, { files: { 'm.csv': csv } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^::warning::injected/m);
    const contacts = 'first_name,email,"c%0A::error::pwned"\nAnn,ann@example.com,1\n';
    const c = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': contacts } });
    expect(c.stdout).not.toMatch(/^::error::pwned/m);
    expect(c.stdout).toContain('c%250A:');
  });

  test('at most 10 annotations of each kind, and "and N more" in the summary', async () => {
    const rows = Array.from({ length: 15 }, (_, i) => `B${i},bad-${i}`).join('\n');
    const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': `first_name,email\n${rows}\n` } });
    expect(r.code).toBe(1);
    expect(commands(r, 'error')).toHaveLength(10);
    expect(r.summary).toContain('9 error annotations shown, and 6 more');
  });

  test('ids is capped; every result is in results-file under RUNNER_TEMP', async () => {
    const messages = Array.from({ length: 1200 }, (_, i) => ({ channel: 'email', to: `u${i}@example.com`, body: `n${i}` }));
    const r = await step({ mode: 'batch', file: 'm.json' }, { files: { 'm.json': JSON.stringify(messages) } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.outputs.ids)).toHaveLength(1000);
    expect(dirname(r.outputs['results-file'])).toBe(r.runnerTemp);
    const file = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')) as { ids: string[]; results: { status: string; key: string }[] };
    expect(file.ids).toHaveLength(1200);
    expect(file.results.filter((x) => x.status === 'sent')).toHaveLength(1200);
    expect(file.results[0].key).toBe(r.outputs['idempotency-key']);
    expect(file.results[500].key).not.toBe(file.results[0].key);
  }, 60000);

  test('numeric inputs are decimal: wait-timeout 0x10 is refused by name', async () => {
    const r = await step({ mode: 'import-status', 'import-job-ids': 'job_x', 'wait-timeout': '0x10' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::Input "wait-timeout": must be a number of seconds from 0 to 21600, got "0x10"/m);
  });
});

describe('keys that name the run', () => {
  const A = 'first_name,email\nAnn,ann@example.com\n';
  const B = 'first_name,email\nAnnie,ann@example.com\n';

  test('A → B → A, one run each, ends with A in the service', async () => {
    for (const [runId, csv] of [['101', A], ['102', B], ['103', A]]) {
      const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': csv }, runId });
      expect(r.code).toBe(0);
    }
    expect(ledgerRows(sandbox).contacts.map((c) => c.first_name)).toEqual(['Ann']);
    expect(ledgerRows(sandbox).jobs).toHaveLength(3);
  });

  test('a new run sends the notification again; a re-run of it does not', async () => {
    const send = { mode: 'send', channel: 'email', to: 'ann@example.com', body: 'Released {{ event.release.tag_name }}' };
    const first = await step(send, { runId: '201' });
    await step(send, { workspaceDir: first.workspace, runId: '201', runAttempt: '2' });
    expect(ledgerRows(sandbox).messages).toHaveLength(1);
    const next = await step(send, { workspaceDir: first.workspace, runId: '202' });
    expect(next.outputs['idempotency-key']).not.toBe(first.outputs['idempotency-key']);
    expect(ledgerRows(sandbox).messages).toHaveLength(2);
  });

  test('a re-run (GITHUB_RUN_ATTEMPT=2) sends nothing new; matrix legs with different files both apply', async () => {
    const first = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': A } });
    const rerun = await step({ mode: 'sync-contacts', file: 'c.csv' }, { workspaceDir: first.workspace, runAttempt: '2' });
    expect(rerun.outputs['idempotency-key']).toBe(first.outputs['idempotency-key']);
    expect(ledgerRows(sandbox).jobs).toHaveLength(1);
    expect(rerun.summary).toContain('nothing was imported twice');
    // Another matrix leg: same run, job and step, another file's content.
    const leg = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': 'first_name,email\nZed,zed@example.com\n' } });
    expect(leg.outputs['idempotency-key']).not.toBe(first.outputs['idempotency-key']);
    expect(ledgerRows(sandbox).contacts.map((c) => c.email).sort()).toEqual(['ann@example.com', 'zed@example.com']);
  });
});
