/**
 * What is safe to retry, inside a REAL n8n 2.41.1 driven over its REST API the way the editor calls it.
 * A workflow sends 1,000 messages in two chunks of 500; the sandbox refuses every attempt at the second
 * chunk, so the execution fails after 500 went out. Then:
 *   - "Retry with original workflow" (`loadWorkflow: false`) and "… with currently saved workflow"
 *     (`true`) each end with 1,000 delivered and 0 sent twice; the rows sent before are reported as
 *     not sent again (`sentEarlier` or `replayed`);
 *   - a second manual run with the same items sends nothing twice (the same trigger data is the same send);
 *   - examples/n8n-resend-failed.json: failed rows leave by the error output, are fixed, and are sent.
 * One n8n (`n8n start`, SQLite, default saving) serves the whole file. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import { ledgerRows } from '../../support/ledger-rows.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../../sandbox/server.ts';
import {
	executionItems,
	N8nRest,
	ownerEnv,
	repoRoot,
	startN8n,
	stopwatch,
	type N8nServer,
	type N8nWorkflow,
	usePackagedN8n,
} from './n8n-harness.ts';
import { failAfterFirstChunk, notSentAgain, sendBatchWorkflow } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'RetryE2e-pass1' };
const describeE2e = realN8nSkipped() ? describe.skip : describe;

/** Start → "Recipients" (Code: `count` items) → "Send Batch" (Messaging Service, each item one message). */
function batchWorkflow(name: string, count: number): Omit<N8nWorkflow, 'id'> {
	return sendBatchWorkflow({ id: 'retryWf', name, count, emailPrefix: 'user', credential: { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' } });
}

describeE2e('what is safe to retry in a real n8n 2.41.1 (REST API, as the editor calls it)', () => {
	let sb: Sandbox;
	let server: N8nServer | undefined;
	let rest: N8nRest;
	const { timings, time } = stopwatch();
	const figures: Record<string, unknown> = {};
	const suite = usePackagedN8n({ name: 'retry', sandbox: { job_rows_per_second: 2000 }, time, beforeCleanup: async () => server?.stop() });

	beforeAll(async () => {
		sb = suite.sb;
		server = await time('n8n start', () => startN8n(suite.home, { env: ownerEnv(suite.home, OWNER), timeoutMs: 3 * MINUTES }));
		rest = new N8nRest(server.url, suite.home);
		await rest.login(OWNER);
	}, 5 * MINUTES);

	afterAll(() => console.log(`n8n retry e2e figures: ${JSON.stringify(figures)}; timings (ms): ${JSON.stringify(timings)}`));

	for (const loadWorkflow of [false, true]) {
		const label = loadWorkflow ? 'with currently saved workflow' : 'with original workflow';
		test(
			`Retry ${label} (loadWorkflow: ${loadWorkflow}) after 500 of 1,000 went out: 1,000 delivered, 0 sent twice`,
			async () => {
				const { id } = await rest.createWorkflow(batchWorkflow(`retry ${label}`, 1000));
				const failedId = await failAfterFirstChunk(rest, sb, id);

				const retried = await time(`retry ${loadWorkflow}`, () => rest.retry(failedId, loadWorkflow));
				const summary = sb.control.summary();
				figures[`retry loadWorkflow=${loadWorkflow}`] = { delivered: summary.messages, duplicates: summary.duplicates_detected, status: retried.status };
				expect(retried).toMatchObject({ mode: 'retry', retryOf: failedId, status: 'success' });
				expect(retried.id).not.toBe(failedId);
				expect(summary.messages).toBe(1000);
				expect(summary.duplicates_detected).toBe(0);
				const sent = executionItems(retried, 'Send Batch');
				expect(sent).toHaveLength(1000);
				expect(sent.filter(notSentAgain)).toHaveLength(500);
				const ledgerIds = new Set(ledgerRows(sb).messages.map((m) => m.id));
				expect(sent.filter((j) => typeof j.id === 'string' && !ledgerIds.has(j.id))).toEqual([]);
			},
			10 * MINUTES,
		);
	}

	test(
		'a second manual run with the same items sends nothing twice (a new Schedule tick does: exactly-once-paths.e2e)',
		async () => {
			const { id } = await rest.createWorkflow(batchWorkflow('run twice', 300));
			const first = await rest.waitForExecution(await rest.runWorkflow(id));
			const second = await rest.waitForExecution(await rest.runWorkflow(id));
			const summary = sb.control.summary();
			figures['second manual run'] = { delivered: summary.messages, duplicates: summary.duplicates_detected };
			expect([first.status, second.status]).toEqual(['success', 'success']);
			expect(summary.messages).toBe(300);
			expect(summary.duplicates_detected).toBe(0);
			expect(executionItems(second, 'Send Batch').filter(notSentAgain)).toHaveLength(300);
		},
		10 * MINUTES,
	);

	test(
		'examples/n8n-resend-failed.json: failed rows leave by the error output, are fixed and sent; nothing twice',
		async () => {
			const example = JSON.parse(readFileSync(join(repoRoot(), 'examples', 'n8n-resend-failed.json'), 'utf8')) as Omit<N8nWorkflow, 'id'>;
			const { id } = await rest.createWorkflow(example);
			const execution = await rest.waitForExecution(await rest.runWorkflow(id, 'When clicking ‘Execute workflow’'));
			expect(execution.status).toBe('success');
			const failed = executionItems(execution, 'Send Batch', 1);
			expect(failed.map((j) => [j.to, j.details.outcome])).toEqual([
				['grace(at)example.com', 'failed'],
				['alan(at)example.com', 'failed'],
			]);
			expect(executionItems(execution, 'Send Fixed').map((j) => j.to)).toEqual(['grace@example.com', 'alan@example.com']);
			const delivered = ledgerRows(sb).messages.map((m) => m.to).sort();
			expect(delivered).toEqual(['ada@example.com', 'alan@example.com', 'barbara@example.com', 'grace@example.com', 'linus@example.com']);
			expect(sb.control.summary().duplicates_detected).toBe(0);
		},
		10 * MINUTES,
	);
});
