/**
 * Exactly-once across a crash, in a REAL n8n 2.41.1 on PostgreSQL (regular mode; MSGSVC_E2E_N8N_DB=sqlite
 * runs the same on SQLite, to compare). A production webhook starts Webhook → Recipients (5,000 items)
 * → Send Batch (default settings: no Idempotency Key). Every batch call is held by the sandbox, so the
 * send is in flight when n8n is killed with SIGKILL once the ledger shows two chunks committed (the
 * chunk in flight may commit after n8n died: its outcome is unknown to n8n). n8n is restarted on the same
 * user folder and database, and the crashed execution is retried from the executions list, with the
 * original and with the saved workflow: the ledger must show 5,000 delivered and 0 sent twice.
 * The webhook-started execution is the one n8n can retry after a crash (it is stored with its start data).
 * What n8n 2.41.1 does there (dumped over REST): at restart its crash recovery rewrites the run data from
 * the event log — every node upstream of the crash gets run 0 = one item `{ isArtificialRecoveredEventItem:
 * true }` — and the Retry re-runs those nodes from the stored start data as run 1 (the real items).
 */
import type { Sandbox } from '../../../sandbox/server.ts';
import {
	executionHints,
	executionItems,
	killHard,
	manualWorkflow,
	N8nRest,
	ownerEnv,
	startN8n,
	startPostgres,
	waitUntil,
	type ExecutionSummary,
	type N8nHome,
	type N8nServer,
	type PostgresServer,
	usePackagedN8n,
} from './n8n-harness.ts';
import { notSentAgain, sendBatchWorkflow, webhookTrigger } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';
import { ledgerRows } from '../../support/ledger-rows.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'CrashE2e-pass1' };
const COUNT = 5000;
const CREDENTIAL = { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' };
const DB = process.env.MSGSVC_E2E_N8N_DB === 'sqlite' ? 'sqlite' : 'postgresdb';
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e(`a crash mid-send, then Retry, in a real n8n 2.41.1 on ${DB} (regular mode)`, () => {
	let sb: Sandbox;
	let pg: PostgresServer | undefined;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let rest: N8nRest;
	const figures: Record<string, unknown> = {};
	const suite = usePackagedN8n({
		name: 'crash',
		homeEnv: async () => {
			if (DB === 'postgresdb') pg = await startPostgres();
			return pg?.n8nEnv ?? {};
		},
		beforeCleanup: async () => {
			await server?.stop();
			await pg?.stop();
		},
	});

	/** Starts n8n (again on the same port after a crash: an error workflow calls n8n at its URL). */
	async function startAndLogin(): Promise<void> {
		server = await startN8n(home, { port: server?.port, env: ownerEnv(home, OWNER), timeoutMs: 3 * MINUTES });
		rest = new N8nRest(server.url, home);
		await rest.login(OWNER);
	}

	beforeAll(async () => {
		sb = suite.sb;
		home = suite.home;
		await startAndLogin();
	}, 5 * MINUTES);

	afterAll(() => console.log(`n8n crash e2e figures (${DB}): ${JSON.stringify(figures)}`));

	/**
	 * Creates and publishes the 5,000-message webhook workflow, starts it with every batch call held 1 s
	 * (the send is in flight when n8n dies), kills n8n once two chunks committed, and restarts it.
	 */
	async function crashMidSend(path: string, settings: Record<string, unknown> = {}): Promise<{ workflowId: string; atKill: number; started: number }> {
		const wf = sendBatchWorkflow({ id: 'crashWf', name: `crash ${path}`, count: COUNT, emailPrefix: 'c', credential: CREDENTIAL, trigger: webhookTrigger(path) });
		const { id } = await rest.createWorkflow({ ...wf, settings: { ...(wf.settings as object), ...settings } });
		await rest.activateWorkflow(id);
		sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'slow', delay_ms: 1000, count: 1000 });
		const started = Date.now();
		await rest.postWebhook(path, { run: path });
		await waitUntil('two chunks committed', () => sb.control.summary().messages >= 1000, 5 * MINUTES);
		await killHard(server!);
		const atKill = sb.control.summary().messages;
		expect(atKill).toBeLessThan(COUNT); // the crash really was mid-send
		sb.control.clearFaults();
		await startAndLogin();
		return { workflowId: id, atKill, started };
	}

	/** The ledger after recovery, and what the recovering execution reported. */
	function expectExactlyOnce(recovery: ExecutionSummary, deliveredBefore: number): void {
		const summary = sb.control.summary();
		const recipients = new Set(ledgerRows(sb).messages.map((m) => m.to));
		expect({ delivered: summary.messages, recipients: recipients.size, duplicates: summary.duplicates_detected }).toEqual({ delivered: COUNT, recipients: COUNT, duplicates: 0 });
		expect(recovery.status).toBe('success');
		// Every row is reported once: the ones that went out before the crash as not sent again.
		const out = executionItems(recovery, 'Send Batch');
		expect(new Set(out.map((j) => j.to)).size).toBe(COUNT);
		expect(out.filter(notSentAgain)).toHaveLength(deliveredBefore);
		const ledgerIds = new Set(ledgerRows(sb).messages.map((m) => m.id));
		expect(out.filter((j) => typeof j.id === 'string' && !ledgerIds.has(j.id))).toEqual([]);
		// Rows skipped as sent earlier are named in the hint the editor shows on the node (read over REST).
		if (out.some((j) => j.sentEarlier === true)) expect(executionHints(recovery, 'Send Batch').join('\n')).toContain('already sent earlier');
	}

	/** The ledger, and how the recovering execution reported the rows it did not send. */
	const ledgerFigures = (recovery: ExecutionSummary): Record<string, number> => {
		const summary = sb.control.summary();
		const out = executionItems(recovery, 'Send Batch');
		return {
			delivered: summary.messages,
			recipients: new Set(ledgerRows(sb).messages.map((m) => m.to)).size,
			duplicates: summary.duplicates_detected,
			sentEarlier: out.filter((j) => j.sentEarlier === true).length,
			replayed: out.filter((j) => j.replayed === true).length,
		};
	};

	for (const loadWorkflow of [false, true]) {
		test(
			`kill -9 after 2 of 10 chunks, restart, Retry (loadWorkflow: ${loadWorkflow}): ${COUNT} delivered, 0 sent twice`,
			async () => {
				const { workflowId, atKill, started } = await crashMidSend(`crash-${loadWorkflow}`);
				const crashed = await waitUntil('the crashed execution in the list', async () => (await rest.executions(workflowId)).find((x) => x.mode === 'webhook' && !['running', 'new'].includes(x.status)), 3 * MINUTES, 500);
				const delivered = sb.control.summary().messages; // the chunks in flight may have committed after the kill
				const retried = await rest.retry(crashed.id, loadWorkflow);
				figures[`retry loadWorkflow=${loadWorkflow}`] = { crashedStatus: crashed.status, deliveredAtKill: atKill, deliveredBeforeRetry: delivered, ...ledgerFigures(retried), retryStatus: retried.status, wallSeconds: (Date.now() - started) / 1000 };
				expect(retried).toMatchObject({ mode: 'retry', retryOf: crashed.id });
				expectExactlyOnce(retried, delivered);
			},
			15 * MINUTES,
		);
	}

	test(
		`the same crash, retried by an error workflow through the public API with no human: ${COUNT} delivered, 0 sent twice`,
		async () => {
			// Error Trigger → HTTP Request POST /api/v1/executions/<failed id>/retry with an API key of the owner.
			const { rawApiKey } = await rest.call<{ rawApiKey: string }>('POST', '/rest/api-keys', { label: 'auto-retry', scopes: ['execution:retry'], expiresAt: null });
			const { id: _id, ...autoRetry } = manualWorkflow({
				id: 'autoRetryWf',
				name: 'auto-retry',
				trigger: { name: 'On Error', type: 'n8n-nodes-base.errorTrigger', typeVersion: 1, parameters: {} },
				nodes: [
					{
						name: 'Retry',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						parameters: { method: 'POST', url: `=${server!.url}/api/v1/executions/{{ $json.execution.id }}/retry`, sendHeaders: true, headerParameters: { parameters: [{ name: 'X-N8N-API-KEY', value: rawApiKey }] }, sendBody: true, specifyBody: 'json', jsonBody: '{"loadWorkflow": false}', options: {} },
					},
				],
			});
			void _id;
			const { id: errorWorkflowId } = await rest.createWorkflow(autoRetry);
			await rest.activateWorkflow(errorWorkflowId); // n8n 2.x runs an error workflow's published version
			const { workflowId, atKill, started } = await crashMidSend('crash-auto', { errorWorkflow: errorWorkflowId });
			const crashedId = await waitUntil('the crashed execution in the list', async () => (await rest.executions(workflowId)).find((x) => x.mode === 'webhook')?.id, 3 * MINUTES, 500);
			const retryId = await waitUntil('the error workflow\'s retry', async () => (await rest.executions(workflowId)).find((x) => x.retryOf === crashedId)?.id, 5 * MINUTES, 500);
			const retried = await rest.waitForExecution(retryId, 10 * MINUTES);
			const errorRuns = await rest.executions(errorWorkflowId);
			figures['error workflow retry'] = { deliveredAtKill: atKill, ...ledgerFigures(retried), retryStatus: retried.status, errorWorkflowRuns: errorRuns.map((x) => x.status), wallSeconds: (Date.now() - started) / 1000 };
			expect(retried).toMatchObject({ mode: 'retry', retryOf: crashedId });
			// What went out before the retry started: the ledger rows older than the retry execution.
			const retryStart = Date.parse(String((retried as { startedAt?: string }).startedAt));
			const deliveredBefore = ledgerRows(sb).messages.filter((m) => Date.parse(String(m.created_at)) < retryStart).length;
			expectExactlyOnce(retried, deliveredBefore);
		},
		15 * MINUTES,
	);
});
