/**
 * The action's error text as the runner shows it, from src/error-wording.ts: a refused row has no HTTP
 * status of its own; a job's row is named by its file line where it can be placed and otherwise by the
 * service's element index (as the sandbox inbox names it); a deprecated `mode: job` that fails early is
 * titled with the new name and still warns. The bundle runs as the runner runs it, against a sandbox.
 */
import { readFileSync } from 'node:fs';
import { RELEASE_EVENT } from './helpers.ts';
import { runStep, useBundleSandbox } from './runner.ts';
import type { StepOptions, StepResult } from './runner.ts';

const sandbox = useBundleSandbox({ job_rows_per_second: 5000 });

function step(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  return runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, ...options });
}

const errors = (r: StepResult) => r.stdout.split('\n').filter((l) => l.startsWith('::error'));
const tableRows = (r: StepResult) => r.summary.split('\n').filter((l) => l.startsWith('| '));

test('a row refused inside the batch’s 200 answer: no HTTP status in its result, annotation or summary', async () => {
  const csv = 'channel,to,body\nemail,ann@example.com,hi\nemail,not-an-email,hi\n';
  const r = await step({ mode: 'batch', file: 'm.csv', 'fail-on-error': 'false' }, { files: { 'm.csv': csv } });
  expect(r.code).toBe(0);
  const results = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')).results as { line: number; status: string; error?: Record<string, unknown> }[];
  const refused = results.find((x) => x.status === 'failed')!;
  expect(refused.line).toBe(3);
  expect(Object.keys(refused.error!).sort()).toEqual(['code', 'message', 'param']);
  const warning = r.stdout.split('\n').find((l) => l.startsWith('::warning') && l.includes('line=3'))!;
  expect(warning).toMatch(/validation_failed/);
  for (const shown of [warning, r.summary]) expect(shown).not.toMatch(/\b422\b|HTTP/);
});

test('import-status without the file: a row error is named by its job and element, in the annotation and the summary alike', async () => {
  const csv = 'first_name,email\nAnn,ann@example.com\nBad,not-an-email\nBob,bob@example.com\n';
  const sync = await step({ mode: 'sync-contacts', file: 'c.csv', wait: 'false' }, { files: { 'c.csv': csv } });
  const [id] = JSON.parse(sync.outputs['import-job-ids']) as string[];
  const read = await step({ mode: 'import-status', 'import-job-ids': id!, 'wait-timeout': '30' });
  expect(read.code).toBe(1);
  // "Bad" is element 1 of the import call: what the service's `index` says and the inbox shows.
  expect(errors(read)[0]).toMatch(new RegExp(`^::error title=Messaging Service::Contact not imported \\(job ${id}, element 1\\): validation_failed: .* Fix the field \`email\`\\.`));
  const head = tableRows(read).find((l) => l.includes('Status') && l.includes('Id or error'))!;
  expect(head.startsWith('| Element |')).toBe(true);
  expect(tableRows(read).find((l) => l.includes('❌ failed'))!.startsWith('| 1 |')).toBe(true);
  expect(read.summary).toContain('- Contacts: 2 imported, 1 failed.');

  // With the file whose rows made the job, the same row is named by its line, in both places.
  const placed = await step({ mode: 'import-status', 'import-job-ids': id!, file: 'c.csv', 'wait-timeout': '30' }, { workspaceDir: sync.workspace });
  expect(errors(placed)[0]).toMatch(new RegExp(`^::error title=Messaging Service,file=c\\.csv,line=3::Contact not imported \\(job ${id}\\): validation_failed`));
  expect(tableRows(placed).find((l) => l.includes('❌ failed'))!.startsWith('| 3 |')).toBe(true);
});

test('a deprecated mode: job that fails before reading its inputs is titled import-status and still warns', async () => {
  const r = await step({ mode: 'job', 'import-job-ids': 'job_a', 'job-id': 'job_b' });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::warning::mode: job is deprecated: use mode: import-status instead/m);
  expect(r.summary).toContain('### Messaging Service — import-status');
  expect(r.summary).not.toMatch(/Messaging Service — job\b/);
  expect(r.summary).toContain('- mode: job is deprecated: use mode: import-status instead');
});
