/**
 * The names that read like GitHub's own "job" are renamed (mode: import-status, import-job-ids,
 * import-status): the new names work, the old ones still work with a warning naming the new, and both
 * outputs are written. Counts are numbers in every mode, and a bad row of a file is named by its line
 * in the log and the summary alike. The bundle runs as the runner runs it, against a sandbox.
 */
import { RELEASE_EVENT } from './helpers.ts';
import { runStep, useBundleSandbox } from './runner.ts';
import type { StepOptions, StepResult } from './runner.ts';
import { ledgerRows } from '../support/ledger-rows.ts';

const sandbox = useBundleSandbox({ job_rows_per_second: 5000 });

function step(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  return runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, ...options });
}

const CONTACTS = 'first_name,email\nAnn,ann@example.com\nBad,not-an-email\nBob,bob@example.com\n';
const COUNTS = ['sent', 'imported', 'failed', 'unknown', 'not-attempted', 'queued'];

test('sync-contacts writes import-job-ids and import-status, and the deprecated job-ids and job-status with the same values', async () => {
  const sync = await step({ mode: 'sync-contacts', file: 'c.csv', wait: 'false' }, { files: { 'c.csv': CONTACTS } });
  expect(sync.code).toBe(0);
  expect(sync.outputs['import-status']).toBe('queued');
  expect(JSON.parse(sync.outputs['import-job-ids'])).toHaveLength(1);
  expect(sync.outputs['job-ids']).toBe(sync.outputs['import-job-ids']);
  expect(sync.outputs['job-status']).toBe(sync.outputs['import-status']);
  expect(sync.stdout).not.toMatch(/^::warning::.*deprecated/m);

  const read = await step({ mode: 'import-status', 'import-job-ids': sync.outputs['import-job-ids'], 'wait-timeout': '30', 'fail-on-error': 'false' });
  expect(read.code).toBe(0);
  expect(read.outputs['import-status']).toBe('completed');
  expect(read.outputs.imported).toBe('2');
  expect(read.stdout).not.toMatch(/deprecated/);
  expect(read.summary).toContain('### Messaging Service — import-status');
});

test('mode: job and job-id still work, each with a warning naming its new name', async () => {
  const sync = await step({ mode: 'sync-contacts', file: 'c.csv', wait: 'false' }, { files: { 'c.csv': CONTACTS } });
  const [id] = JSON.parse(sync.outputs['import-job-ids']) as string[];
  const old = await step({ mode: 'job', 'job-id': id, 'wait-timeout': '30', 'fail-on-error': 'false' });
  expect(old.code).toBe(0);
  expect(old.outputs['job-status']).toBe('completed');
  expect(old.outputs['import-status']).toBe('completed');
  expect(old.outputs['job-ids']).toBe(JSON.stringify([id]));
  expect(old.stdout).toMatch(/^::warning::mode: job is deprecated: use mode: import-status instead/m);
  expect(old.stdout).toMatch(/^::warning::Input "job-id" is deprecated: use input "import-job-ids" instead/m);
});

test('job-id and import-job-ids set to different ids: refused by name, nothing read', async () => {
  const r = await step({ mode: 'import-status', 'import-job-ids': 'job_a', 'job-id': 'job_b' });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error::Input "job-id": is the old name of import-job-ids/m);
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('every count output is a number in every mode, 0 where nothing of its kind happened', async () => {
  const send = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', body: 'hi' });
  const sync = await step({ mode: 'sync-contacts', file: 'c.csv', 'fail-on-error': 'false' }, { files: { 'c.csv': CONTACTS } });
  const invalid = await step({ mode: 'sync-contacts', file: 'missing.csv' });
  expect(invalid.code).toBe(1);
  for (const r of [send, sync, invalid]) for (const name of COUNTS) expect(r.outputs[name]).toMatch(/^\d+$/);
  expect(send.outputs.sent).toBe('1');
  expect(send.outputs.imported).toBe('0');
  expect(send.outputs.queued).toBe('0');
  expect(sync.outputs.sent).toBe('0');
  expect(sync.outputs.imported).toBe('2');
});

test('a bad contact row is named by its file line in the annotation and the summary, never by a position', async () => {
  const r = await step({ mode: 'sync-contacts', file: 'c.csv' }, { files: { 'c.csv': CONTACTS } });
  expect(r.code).toBe(1);
  // "Bad" is the second contact, on line 3 of the file.
  expect(r.stdout).toMatch(/^::error title=Messaging Service,file=c\.csv,line=3::Contact not imported/m);
  const table = r.summary.split('\n').filter((l) => l.startsWith('| '));
  const head = table.find((l) => l.includes('Status') && l.includes('Line'))!;
  expect(head.startsWith('| Line (c.csv) |')).toBe(true);
  const row = table.find((l) => l.includes('❌ failed'))!;
  expect(row.startsWith('| 3 |')).toBe(true);
  expect(r.summary).toContain('**To import:** 3');
  expect(r.summary).not.toContain('**Sent:**');
});
