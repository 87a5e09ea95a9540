/**
 * A worker killed mid-send in n8n's queue mode (REAL n8n 2.41.1: PostgreSQL, Redis, a main and two
 * workers). A production webhook starts Webhook → Recipients (5,000) → Send Batch (default settings) on
 * one worker; the sandbox holds each batch call 1 s, and that worker is killed with SIGKILL once the
 * ledger shows two chunks committed. n8n then fails the execution as stalled (its run data replaced by an
 * empty failed run, so its Retry runs nothing): the recovery n8n offers is the same webhook payload sent
 * again, which the surviving worker runs. The ledger must show 5,000 delivered, 0 twice, 0 lost — and
 * each worker's log names the execution it ran, so both workers did run one.
 * The stall settings are shortened (a user can set them the same way) so the stalled job fails in
 * seconds instead of about two minutes. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import {
	buildAndPackMessagingPackage,
	ensureHost,
	executionItems,
	killAll,
	killHard,
	N8nRest,
	startQueueCluster,
	waitUntil,
	type N8nCredential,
	type N8nServer,
	type QueueCluster,
} from './n8n-harness.ts';
import { notSentAgain, recipientsWithTwoTexts, sendBatchWorkflow, webhookTrigger } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';
import { ledgerRows } from '../../support/ledger-rows.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'QueueCrash-pass1' };
const COUNT = 5000;
const CREDENTIAL = { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' };
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('queue mode on PostgreSQL: a worker killed mid-send, the same webhook payload sent again', () => {
	let sb: Sandbox;
	let work: string;
	let cluster: QueueCluster | undefined;
	let workers: N8nServer[] = [];
	let rest: N8nRest;

	beforeAll(async () => {
		await ensureHost();
		sb = await start({ port: 0, host: '127.0.0.1' });
		work = await mkdtemp(join(tmpdir(), 'n8n-queue-crash-e2e-'));
		const credential = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'sandbox-credential.json'), 'utf8')) as N8nCredential;
		cluster = await startQueueCluster({
			tarball: await buildAndPackMessagingPackage(work),
			owner: OWNER,
			credentials: [{ ...credential, data: { ...credential.data, baseUrl: sb.url } }],
			// n8n gives up on a dead worker's job in seconds rather than about two minutes.
			env: { QUEUE_WORKER_LOCK_DURATION: '10000', QUEUE_WORKER_LOCK_RENEW_TIME: '2000', QUEUE_WORKER_STALLED_INTERVAL: '5000' },
		});
		({ workers, rest } = cluster);
	}, 20 * MINUTES);

	afterAll(async () => {
		await cluster?.stop();
		await killAll();
		await sb?.close();
		if (work) await rm(work, { recursive: true, force: true });
	});

	test(
		`kill -9 of the worker after 2 of 10 chunks, the same payload again: ${COUNT} delivered, 0 twice, 0 lost, both workers ran one`,
		async () => {
			const path = 'queue-crash';
			const payload = { campaign: 'spring', batch: 7 };
			const { id } = await rest.createWorkflow(sendBatchWorkflow({ id: 'queueCrashWf', name: 'queue crash', count: COUNT, emailPrefix: 'qc', credential: CREDENTIAL, trigger: webhookTrigger(path) }));
			await rest.activateWorkflow(id);
			sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'slow', delay_ms: 1000, count: 1000 });
			const started = Date.now();
			await rest.postWebhook(path, payload);

			const first = await waitUntil('the webhook execution in the list', async () => (await rest.executions(id))[0], MINUTES, 200);
			const ranFirst = await waitUntil('a worker to take the execution', () => workers.find((w) => w.output().includes(`Worker started execution ${first.id} `)), MINUTES);
			await waitUntil('two chunks committed', () => sb.control.summary().messages >= 1000, 5 * MINUTES);
			await killHard(ranFirst);
			const survivor = workers.find((w) => w !== ranFirst)!;
			const stalled = await waitUntil('the killed execution to be given up', async () => {
				const x = await rest.execution(first.id);
				return ['running', 'new'].includes(x.status) ? undefined : x;
			}, 3 * MINUTES, 500);
			sb.control.clearFaults();
			const deliveredBefore = sb.control.summary().messages;

			await rest.postWebhook(path, payload);
			const again = await waitUntil('the second webhook execution', async () => (await rest.executions(id)).find((x) => x.id !== first.id), MINUTES, 200);
			const resent = await rest.waitForExecution(again.id, 10 * MINUTES);
			const summary = sb.control.summary();
			const figures = {
				stalledStatus: stalled.status,
				deliveredAtRecovery: deliveredBefore,
				delivered: summary.messages,
				duplicates: summary.duplicates_detected,
				recipientsWithTwoTexts: recipientsWithTwoTexts(sb).length,
				recipients: new Set(ledgerRows(sb).messages.map((m) => m.to)).size,
				resentStatus: resent.status,
				wallSeconds: (Date.now() - started) / 1000,
			};
			console.log(`n8n queue-mode crash figures: ${JSON.stringify(figures)}`);

			// Both workers ran an execution: the killed one the first, the survivor the second.
			expect(survivor.output()).toContain(`Worker started execution ${again.id} `);
			expect(ranFirst.output()).not.toContain(`Worker started execution ${again.id} `);
			expect(deliveredBefore).toBeLessThan(COUNT);
			expect({ delivered: summary.messages, recipients: figures.recipients, duplicates: summary.duplicates_detected }).toEqual({ delivered: COUNT, recipients: COUNT, duplicates: 0 });
			expect(resent.status).toBe('success');
			const out = executionItems(resent, 'Send Batch');
			expect(new Set(out.map((j) => j.to)).size).toBe(COUNT);
			expect(out.filter(notSentAgain)).toHaveLength(deliveredBefore);
		},
		15 * MINUTES,
	);
});
