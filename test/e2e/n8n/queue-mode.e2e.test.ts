/**
 * n8n queue mode in a REAL n8n 2.41.1: Redis, `n8n start` (main) and two `n8n worker`s sharing one
 * PostgreSQL database (SQLite is not a supported queue-mode database: with the node writing n8n's
 * deduplication store from two workers it failed an execution with SQLITE_BUSY); manual executions go
 * to the workers (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS). 5,000 items in 4 concurrent executions (1,250
 * each: 3 batch calls) on ONE sandbox key with a low ceiling (2 requests per 1 s window), so the two
 * workers' pacing meets the shared limit. The ledger shows every message
 * exactly once; the 429s, wall time and items per second are printed. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import { ledgerRows } from '../../support/ledger-rows.ts';
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
	N8nRest,
	startQueueCluster,
	type N8nServer,
	type QueueCluster,
} from './n8n-harness.ts';
import { failAfterFirstChunk, notSentAgain, sendBatchWorkflow } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'QueueE2e-pass1' };
const EXECUTIONS = 4;
const PER_EXECUTION = 1250;
/** One sandbox key with a low ceiling, shared by every execution on both workers. */
const LOW_CEILING_CREDENTIAL = { id: 'msgQueueCred', name: 'Messaging Service (low ceiling)' };
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('n8n queue mode: main + 2 workers, 4 concurrent executions on one rate-limited key', () => {
	let sb: Sandbox;
	let work: string;
	let cluster: QueueCluster | undefined;
	/** The main, then the two workers. */
	let servers: N8nServer[] = [];
	let rest: N8nRest;

	beforeAll(async () => {
		await ensureHost();
		sb = await start({ port: 0, host: '127.0.0.1', config: { window_seconds: 1, accounts: [{ id: 'acc_rate_limited', rate_limit: 2 }] } });
		work = await mkdtemp(join(tmpdir(), 'n8n-queue-e2e-'));
		cluster = await startQueueCluster({
			tarball: await buildAndPackMessagingPackage(work),
			owner: OWNER,
			credentials: [{ ...LOW_CEILING_CREDENTIAL, type: 'messagingServiceApi', data: { apiKey: 'sk_test_demo_rate_limited', baseUrl: sb.url } }],
			// Two jobs at a time per worker: 4 executions at once cannot all land on one worker.
			env: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', N8N_CONCURRENCY_PRODUCTION_LIMIT: '2' },
		});
		servers = [cluster.main, ...cluster.workers];
		rest = cluster.rest;
	}, 20 * MINUTES);

	// One n8n cluster for the file, but each test starts from an empty sandbox (the order is random).
	beforeEach(() => sb.control.reset());

	afterAll(async () => {
		await cluster?.stop();
		await killAll();
		await sb?.close();
		if (work) await rm(work, { recursive: true, force: true });
	});

	test(
		`${EXECUTIONS * PER_EXECUTION} items in ${EXECUTIONS} concurrent executions: 0 lost, 0 duplicated`,
		async () => {
			const ids: string[] = [];
			for (let e = 0; e < EXECUTIONS; e++) {
				const wf = sendBatchWorkflow({ id: `queueWf${e}`, name: `queue ${e}`, count: PER_EXECUTION, emailPrefix: `q${e}-`, credential: LOW_CEILING_CREDENTIAL });
				ids.push((await rest.createWorkflow(wf)).id);
			}
			const started = Date.now();
			const executionIds = await Promise.all(ids.map((id) => rest.runWorkflow(id)));
			const executions = await Promise.all(executionIds.map((id) => rest.waitForExecution(id, 10 * MINUTES)));
			const wallMs = Date.now() - started;

			// Each execution's status with n8n's own error, so a failure says why.
			const outcome = (x: (typeof executions)[number]) => ({ status: x.status, error: x.data?.resultData?.error?.message as string | undefined, node: x.data?.resultData?.lastNodeExecuted as string | undefined });
			if (executions.some((x) => x.status !== 'success')) {
				const tail = (out: string): string => out.split('\n').slice(-60).join('\n');
				console.log(`queue mode: an execution did not succeed: ${JSON.stringify(executions.map(outcome))}\n${servers.map((s, i) => `--- ${i === 0 ? 'main' : `worker ${i}`}\n${tail(s.output())}`).join('\n')}`);
			}
			expect(executions.map(outcome).map(({ status, error }) => ({ status, error }))).toEqual(Array(EXECUTIONS).fill({ status: 'success', error: undefined }));
			const ledger = ledgerRows(sb);
			const summary = sb.control.summary();
			const calls = EXECUTIONS * Math.ceil(PER_EXECUTION / 500);
			const rejected429 = ledger.requests - calls;
			const workerLogs = servers.slice(1).map((worker) => worker.output());
			/** The executions a worker's log says it started. */
			const ranOn = (log: string): string[] => executionIds.filter((id) => log.includes(`Worker started execution ${id} `));
			const nodeLogLines = (out: string): number => out.split('\n').filter((line) => line.includes('Messaging Service: ')).length;
			const figures = {
				items: EXECUTIONS * PER_EXECUTION,
				delivered: summary.messages,
				duplicates: summary.duplicates_detected,
				requests: ledger.requests,
				'429s': rejected429,
				'node log lines per worker': workerLogs.map(nodeLogLines),
				'executions per worker': workerLogs.map((out) => ranOn(out).length),
				wallSeconds: wallMs / 1000,
				itemsPerSecond: Math.round((EXECUTIONS * PER_EXECUTION) / (wallMs / 1000)),
			};
			console.log(`n8n queue mode figures: ${JSON.stringify(figures)}`);

			expect(new Set(ledger.messages.map((m) => m.to)).size).toBe(EXECUTIONS * PER_EXECUTION);
			expect(summary.messages).toBe(EXECUTIONS * PER_EXECUTION);
			expect(summary.duplicates_detected).toBe(0);
			for (const execution of executions) expect(executionItems(execution, 'Send Batch')).toHaveLength(PER_EXECUTION);
			// The executions ran on the workers, not on the main, and each worker ran at least one of them.
			const byWorker = workerLogs.map(ranOn);
			expect(byWorker.map((ids) => ids.length).every((n) => n >= 1)).toBe(true);
			expect(byWorker.flat().sort()).toEqual([...executionIds].sort());
			expect(nodeLogLines(servers[0]!.output())).toBe(0);
		},
		15 * MINUTES,
	);

	test(
		'a Retry of an execution that failed after 500 of 1,000 on a worker: nothing is sent twice',
		async () => {
			const { id } = await rest.createWorkflow(sendBatchWorkflow({ id: 'queueRetryWf', name: 'queue retry', count: 1000, emailPrefix: 'r', credential: LOW_CEILING_CREDENTIAL }));
			const failedId = await failAfterFirstChunk(rest, sb, id);

			const retried = await rest.retry(failedId, false);
			expect(retried).toMatchObject({ mode: 'retry', retryOf: failedId, status: 'success' });
			expect(sb.control.summary()).toMatchObject({ messages: 1000, duplicates_detected: 0 });
			expect(executionItems(retried, 'Send Batch').filter(notSentAgain)).toHaveLength(500);
		},
		10 * MINUTES,
	);
});
