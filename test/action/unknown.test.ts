/**
 * A write whose outcome is unknown (the connection reset after the service committed, on every retry)
 * is reported `unknown` with the key that settles it — its own count, a summary column, the key per
 * result — and the step says to send again with the same key. Re-running the job (attempt 2) does just
 * that: the ledger ends with every message once. Run as the runner runs the bundle.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { leaks, runStep, useBundleSandbox } from './runner.ts';
import type { StepOptions, StepResult } from './runner.ts';

const sandbox = useBundleSandbox();

async function step(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, ...options });
  expect(leaks(r, 'sk_test_demo_ok')).toEqual([]);
  return r;
}

test('batch: a reset after commit on every attempt is unknown, not failed; a re-run settles it exactly once', async () => {
  const messages = Array.from({ length: 3 }, (_, i) => ({ channel: 'email', to: `u${i}@example.com`, body: `n${i}` }));
  const files = { 'm.json': JSON.stringify(messages) };
  sandbox.control.addFault({ route: 'POST /v1/messages/batch', kind: 'reset_after_commit', count: 100 });
  const first = await step({ mode: 'batch', file: 'm.json' }, { files });
  expect(first.code).toBe(1);
  expect(first.outputs.unknown).toBe('3');
  expect(first.outputs.failed).toBe('0');
  expect(first.stdout).toMatch(/^::error::3 unknown: re-run this job to send them again under the same keys \(each result in results-file names its key; the first is gha-[0-9a-f]{48}\)/m);
  const results = JSON.parse(first.outputs.results) as { status: string; key: string }[];
  expect(results.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
  expect(results.every((r) => r.key === first.outputs['idempotency-key'])).toBe(true);
  expect(first.summary).toContain('| Unknown |');
  expect(first.summary).toContain(`❓ unknown | \`transport_error\``);
  expect(first.summary).toContain(`| \`${first.outputs['idempotency-key']}\` |`);

  sandbox.control.clearFaults();
  const rerun = await step({ mode: 'batch', file: 'm.json' }, { workspaceDir: first.workspace, runAttempt: '2' });
  expect(rerun.code).toBe(0);
  expect(rerun.outputs.sent).toBe('3');
  expect(rerun.outputs.unknown).toBe('0');
  expect(ledgerRows(sandbox).messages).toHaveLength(3);
  expect(sandbox.control.summary().duplicates_detected).toBe(0);
}, 120000);

test('sync-contacts: an import whose answer was lost is unknown per contact, with its key', async () => {
  sandbox.control.addFault({ route: 'POST /v1/contacts/bulk', kind: 'reset_after_commit', count: 100 });
  const r = await step({ mode: 'sync-contacts', file: 'c.csv', 'fail-on-error': 'false' }, { files: { 'c.csv': 'first_name,email\nAnn,ann@example.com\nBob,bob@example.com\n' } });
  expect(r.code).toBe(0);
  expect(r.outputs.unknown).toBe('2');
  expect(r.outputs.imported).toBe('0');
  expect(r.outputs['import-status']).toBe('unknown');
  expect(r.stdout).toMatch(/^::warning::2 unknown: re-run this job to send them again under the same keys/m);
  expect((JSON.parse(r.outputs.results) as { key: string }[]).map((x) => x.key)).toEqual([r.outputs['idempotency-key'], r.outputs['idempotency-key']]);
}, 120000);
