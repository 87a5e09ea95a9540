/**
 * Exactly-once across a crash, in a REAL n8n 2.41.1 on PostgreSQL (regular mode; MSGSVC_E2E_N8N_DB=sqlite
 * runs the same on SQLite, to compare). A production webhook starts Webhook → Recipients (5,000 items)
 * → Send Batch (default settings: no Idempotency Key). Every batch call is held by the sandbox, so the
 * send is in flight when n8n is killed with SIGKILL once the ledger shows two chunks committed (the
 * chunk in flight may commit after n8n died: its outcome is unknown to n8n). n8n is restarted on the same
 * user folder and database, and the crashed execution is retried from the executions list, with the
 * original and with the saved workflow: the ledger must show 5,000 delivered and 0 sent twice.
 * The webhook-started execution is the one n8n can retry after a crash (it is stored with its start data).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import {
	buildAndPackMessagingPackage,
	createN8nHome,
	ensureHost,
	executionHints,
	executionItems,
	importCredentials,
	killAll,
	killHard,
	MESSAGING_PACKAGE as PACKAGE,
	N8nRest,
	ownerEnv,
	startN8n,
	startPostgres,
	waitUntil,
	type N8nCredential,
	type N8nHome,
	type N8nServer,
	type PostgresServer,
} from './n8n-harness.ts';
import { notSentAgain, sendBatchWorkflow, webhookTrigger } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'CrashE2e-pass1' };
const COUNT = 5000;
const CREDENTIAL = { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' };
const DB = process.env.MSGSVC_E2E_N8N_DB === 'sqlite' ? 'sqlite' : 'postgresdb';
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e(`a crash mid-send, then Retry, in a real n8n 2.41.1 on ${DB} (regular mode)`, () => {
	let sb: Sandbox;
	let work: string;
	let pg: PostgresServer | undefined;
	let home: N8nHome | undefined;
	let server: N8nServer | undefined;
	let rest: N8nRest;
	const figures: Record<string, unknown> = {};

	async function startAndLogin(): Promise<void> {
		server = await startN8n(home!, { env: ownerEnv(home!, OWNER), timeoutMs: 3 * MINUTES });
		rest = new N8nRest(server.url, home!);
		await rest.login(OWNER);
	}

	beforeAll(async () => {
		await ensureHost();
		sb = await start({ port: 0, host: '127.0.0.1' });
		work = await mkdtemp(join(tmpdir(), 'n8n-crash-e2e-'));
		const tarball = await buildAndPackMessagingPackage(work);
		if (DB === 'postgresdb') pg = await startPostgres();
		home = await createN8nHome({ packageTarball: tarball, packageName: PACKAGE, env: pg?.n8nEnv ?? {} });
		const credential = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'sandbox-credential.json'), 'utf8')) as N8nCredential;
		await importCredentials(home, [{ ...credential, data: { ...credential.data, baseUrl: sb.url } }]);
		await startAndLogin();
	}, 20 * MINUTES);

	afterAll(async () => {
		await server?.stop();
		await killAll();
		await pg?.stop();
		await sb?.close();
		await home?.cleanup();
		if (work) await rm(work, { recursive: true, force: true });
		console.log(`n8n crash e2e figures (${DB}): ${JSON.stringify(figures)}`);
	});

	beforeEach(() => sb.control.reset());

	for (const loadWorkflow of [false, true]) {
		test(
			`kill -9 after 2 of 10 chunks, restart, Retry (loadWorkflow: ${loadWorkflow}): ${COUNT} delivered, 0 sent twice`,
			async () => {
				const path = `crash-${loadWorkflow}`;
				const { id } = await rest.createWorkflow(sendBatchWorkflow({ id: 'crashWf', name: `crash ${loadWorkflow}`, count: COUNT, emailPrefix: 'c', credential: CREDENTIAL, trigger: webhookTrigger(path) }));
				await rest.activateWorkflow(id);
				// Every batch call is held 1 s before it commits: the send is still in flight when n8n dies.
				sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'slow', delay_ms: 1000, count: 1000 });
				const started = Date.now();
				await rest.postWebhook(path, { run: 'crash' });

				await waitUntil('two chunks committed', () => sb.control.summary().messages >= 1000, 5 * MINUTES);
				await killHard(server!);
				const atKill = sb.control.summary().messages;
				expect(atKill).toBeLessThan(COUNT); // the crash really was mid-send
				await startAndLogin();
				sb.control.clearFaults();

				const crashed = await waitUntil('the crashed execution in the list', async () => {
					const list = await rest.executions(id);
					return list.find((x) => x.mode === 'webhook' && !['running', 'new'].includes(x.status));
				}, 3 * MINUTES, 500);
				const delivered = sb.control.summary().messages; // the chunk in flight may have committed after the kill
				const retried = await rest.retry(crashed.id, loadWorkflow);
				const summary = sb.control.summary();
				const recipients = new Set(sb.control.ledger().messages.map((m) => m.to));
				figures[`retry loadWorkflow=${loadWorkflow}`] = {
					crashedStatus: crashed.status,
					deliveredAtKill: atKill,
					deliveredBeforeRetry: delivered,
					delivered: summary.messages,
					recipients: recipients.size,
					duplicates: summary.duplicates_detected,
					retryStatus: retried.status,
					wallSeconds: (Date.now() - started) / 1000,
				};
				expect(retried).toMatchObject({ mode: 'retry', retryOf: crashed.id });
				expect({ delivered: summary.messages, recipients: recipients.size, duplicates: summary.duplicates_detected }).toEqual({ delivered: COUNT, recipients: COUNT, duplicates: 0 });
				expect(retried.status).toBe('success');
				// Every row is reported once: the ones that went out before the crash as not sent again.
				const out = executionItems(retried, 'Send Batch');
				expect(new Set(out.map((j) => j.to)).size).toBe(COUNT);
				expect(out.filter(notSentAgain)).toHaveLength(delivered);
				const ledgerIds = new Set(sb.control.ledger().messages.map((m) => m.id));
				expect(out.filter((j) => typeof j.id === 'string' && !ledgerIds.has(j.id))).toEqual([]);
				// Rows skipped as sent earlier are named in the hint the editor shows on the node.
				if (out.some((j) => j.sentEarlier === true)) expect(executionHints(retried, 'Send Batch').join('\n')).toContain('already sent earlier');
			},
			15 * MINUTES,
		);
	}
});
