/**
 * Exactly-once on the recovery paths users take, in a REAL n8n 2.41.1 (regular mode, SQLite), driven over
 * its REST API as the editor does. The ledger decides: nobody gets a text twice, nobody is left out.
 *   - Options → Idempotency Key `{{ $json.orderId }}` is per item: a re-run sends nothing new, new ids send,
 *     and no run fails with `idempotency_key_reused`;
 *   - a second Schedule tick (a new timestamp) sends again;
 *   - a sub-workflow whose child failed mid-send: Retry of the parent (both modes), and Retry of the
 *     child then of the parent;
 *   - the body edited after a failure, then Retry with the saved workflow: the rows not sent yet carry
 *     the new text, the rows sent keep their one text.
 * One n8n serves the whole file. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import type { Sandbox } from '../../../sandbox/server.ts';
import {
	executionHints,
	executionItems,
	manualWorkflow,
	N8nRest,
	ownerEnv,
	startN8n,
	waitUntil,
	type ChainNode,
	type N8nServer,
	type N8nWorkflow,
	usePackagedN8n,
} from './n8n-harness.ts';
import { failAfterFirstChunk, notSentAgain, recipientsWithTwoTexts, scheduleTrigger, sendBatchWorkflow } from './send-batch-steps.ts';
import { realN8nSkipped } from '../../support/system.ts';
import { ledgerRows } from '../../support/ledger-rows.ts';

const MINUTES = 60_000;
const OWNER = { email: 'owner@example.com', password: 'PathsE2e-pass1' };
const CREDENTIAL = { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' };
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('exactly-once on the paths users take, in a real n8n 2.41.1', () => {
	let sb: Sandbox;
	let server: N8nServer | undefined;
	let rest: N8nRest;
	const figures: Record<string, unknown> = {};
	const suite = usePackagedN8n({ name: 'paths', beforeCleanup: async () => server?.stop() });

	beforeAll(async () => {
		sb = suite.sb;
		server = await startN8n(suite.home, { env: ownerEnv(suite.home, OWNER), timeoutMs: 3 * MINUTES });
		rest = new N8nRest(server.url, suite.home);
		await rest.login(OWNER);
	}, 5 * MINUTES);

	afterAll(() => console.log(`n8n exactly-once paths figures (before → after: compare runs): ${JSON.stringify(figures)}`));

	const ledgerFigures = (): Record<string, number> => {
		const summary = sb.control.summary();
		return { delivered: summary.messages, duplicates: summary.duplicates_detected, recipientsWithTwoTexts: recipientsWithTwoTexts(sb).length };
	};

	test(
		'Idempotency Key {{ $json.orderId }} is per item: a re-run sends nothing new, new ids send, no idempotency_key_reused',
		async () => {
			const perItem = (count: number) => sendBatchWorkflow({ id: 'keyWf', name: 'per-item key', count, emailPrefix: 'order', credential: CREDENTIAL, options: { idempotencyKey: '={{ $json.orderId }}' } });
			const { id } = await rest.createWorkflow(perItem(100));
			const first = await rest.waitForExecution(await rest.runWorkflow(id));
			const again = await rest.waitForExecution(await rest.runWorkflow(id));
			await rest.updateWorkflow(id, { nodes: perItem(150).nodes }); // orders 0–149: 100 sent before, 50 new
			const widened = await rest.waitForExecution(await rest.runWorkflow(id));
			const errors = [first, again, widened].map((x) => {
				const error = x.data?.resultData?.error;
				return error ? String(error.errorResponse?.code ?? error.message) : null;
			});
			figures['per-item key'] = { ...ledgerFigures(), statuses: [first.status, again.status, widened.status], errors };

			expect(ledgerRows(sb).messages.map((m) => m.idempotency_key).filter((k) => k !== null).length).toBe(sb.control.summary().messages);
			expect(errors).toEqual([null, null, null]); // today the third run: idempotency_key_reused
			expect([first.status, again.status, widened.status]).toEqual(['success', 'success', 'success']);
			expect(ledgerFigures()).toEqual({ delivered: 150, duplicates: 0, recipientsWithTwoTexts: 0 });
			const rerun = executionItems(again, 'Send Batch');
			expect(rerun).toHaveLength(100);
			expect(rerun.every((j) => j.sentEarlier === true)).toBe(true);
			expect(executionHints(again, 'Send Batch').join('\n')).toContain('already sent earlier');
			const mixed = executionItems(widened, 'Send Batch');
			expect(mixed.filter((j) => j.sentEarlier === true).map((j) => j.to)).toEqual(Array.from({ length: 100 }, (_, n) => `order${n}@example.com`));
			expect(mixed.filter((j) => j.sentEarlier !== true && typeof j.id === 'string').map((j) => j.to)).toEqual(Array.from({ length: 50 }, (_, i) => `order${100 + i}@example.com`));
		},
		10 * MINUTES,
	);

	test(
		'a second Schedule tick (new timestamp) sends again',
		async () => {
			const { id } = await rest.createWorkflow(sendBatchWorkflow({ id: 'tickWf', name: 'two ticks', count: 300, emailPrefix: 'tick', credential: CREDENTIAL, trigger: scheduleTrigger }));
			const first = await rest.waitForExecution(await rest.runWorkflow(id, scheduleTrigger.name));
			const second = await rest.waitForExecution(await rest.runWorkflow(id, scheduleTrigger.name));
			figures['second schedule tick'] = ledgerFigures();
			const tickOf = (x: typeof first) => executionItems(x, scheduleTrigger.name)[0]?.timestamp;
			expect(tickOf(first)).not.toEqual(tickOf(second)); // two ticks, not one delivered twice
			expect([first.status, second.status]).toEqual(['success', 'success']);
			expect(sb.control.summary().messages).toBe(600);
			expect(recipientsWithTwoTexts(sb)).toHaveLength(300);
			expect(executionItems(second, 'Send Batch').filter(notSentAgain)).toHaveLength(0);
		},
		10 * MINUTES,
	);

	const nodesOf = (wf: Omit<N8nWorkflow, 'id'>): ChainNode[] => wf.nodes as ChainNode[];

	/** Parent (Start → Recipients: 1,000 → Execute Workflow) calling a published child (Execute Workflow Trigger → Send Batch). */
	async function subWorkflowPair(tag: string): Promise<{ parentId: string; childId: string }> {
		const child = nodesOf(sendBatchWorkflow({ id: `child${tag}`, name: `child ${tag}`, count: 0, emailPrefix: 'unused', credential: CREDENTIAL, trigger: { name: 'From Parent', type: 'n8n-nodes-base.executeWorkflowTrigger', typeVersion: 1, parameters: {} } }));
		// The child sends what the parent hands it: drop its own Recipients node.
		const childBody = manualWorkflow({
			id: `child${tag}`,
			trigger: child[0]!,
			nodes: [child[2]!],
		});
		const { id: childId } = await rest.createWorkflow({ ...childBody, name: `child ${tag}` });
		await rest.activateWorkflow(childId); // n8n 2.x calls the child's published version
		const parent = nodesOf(sendBatchWorkflow({ id: `parent${tag}`, name: `parent ${tag}`, count: 1000, emailPrefix: `sub${tag}-`, credential: CREDENTIAL }));
		const parentBody = manualWorkflow({
			id: `parent${tag}`,
			nodes: [parent[1]!, { name: 'Call Child', type: 'n8n-nodes-base.executeWorkflow', typeVersion: 1, parameters: { source: 'database', workflowId: childId, mode: 'once', options: {} } }],
		});
		const { id: parentId } = await rest.createWorkflow({ ...parentBody, name: `parent ${tag}` });
		return { parentId, childId };
	}

	for (const loadWorkflow of [false, true]) {
		test(
			`sub-workflow: the child failed after 500 of 1,000; Retry of the parent (loadWorkflow: ${loadWorkflow}): 1,000 delivered, 0 twice`,
			async () => {
				const { parentId } = await subWorkflowPair(`p${loadWorkflow ? 1 : 0}`);
				const failedId = await failAfterFirstChunk(rest, sb, parentId);
				const retried = await rest.retry(failedId, loadWorkflow);
				figures[`sub-workflow parent retry loadWorkflow=${loadWorkflow}`] = { ...ledgerFigures(), status: retried.status };
				expect(ledgerFigures()).toEqual({ delivered: 1000, duplicates: 0, recipientsWithTwoTexts: 0 });
				expect(retried.status).toBe('success');
			},
			10 * MINUTES,
		);
	}

	test(
		'sub-workflow: Retry of the failed child, then of the parent: 1,000 delivered, 0 twice, 0 lost',
		async () => {
			const { parentId, childId } = await subWorkflowPair('c');
			const failedParent = await failAfterFirstChunk(rest, sb, parentId);
			const failedChild = await waitUntil('the failed child in the list', async () => (await rest.executions(childId)).find((x) => x.status === 'error'), MINUTES, 300);
			const childRetry = await rest.retry(failedChild.id, false);
			const afterChild = ledgerFigures();
			const parentRetry = await rest.retry(failedParent, false);
			figures['sub-workflow child then parent retry'] = { afterChildRetry: afterChild, afterParentRetry: ledgerFigures(), statuses: [childRetry.status, parentRetry.status] };
			expect(afterChild).toEqual({ delivered: 1000, duplicates: 0, recipientsWithTwoTexts: 0 });
			expect(ledgerFigures()).toEqual({ delivered: 1000, duplicates: 0, recipientsWithTwoTexts: 0 });
			expect([childRetry.status, parentRetry.status]).toEqual(['success', 'success']);
			expect(new Set(ledgerRows(sb).messages.map((m) => m.to)).size).toBe(1000);
		},
		10 * MINUTES,
	);

	test(
		'body edited after a failure, Retry with the saved workflow: nobody gets two texts, the unsent rows carry the new text',
		async () => {
			const edited = (body: string) => sendBatchWorkflow({ id: 'editWf', name: 'edit then retry', count: 1000, emailPrefix: 'edit', credential: CREDENTIAL, body });
			const { id } = await rest.createWorkflow(edited('=Old text {{ $json.n }}'));
			const failedId = await failAfterFirstChunk(rest, sb, id);
			const sentBefore = new Set(ledgerRows(sb).messages.map((m) => m.to)); // whichever chunk the sandbox let through
			await rest.updateWorkflow(id, { nodes: edited('=New text {{ $json.n }}').nodes });
			const retried = await rest.retry(failedId, true);
			const messages = ledgerRows(sb).messages;
			figures['body edited then retry'] = { ...ledgerFigures(), status: retried.status };
			expect(recipientsWithTwoTexts(sb)).toEqual([]);
			expect(messages).toHaveLength(1000);
			expect(sentBefore.size).toBe(500);
			const wrongText = messages.filter((m) => m.body !== `${sentBefore.has(m.to) ? 'Old' : 'New'} text ${/\d+/.exec(m.to)![0]}`);
			expect(wrongText.map((m) => [m.to, m.body])).toEqual([]);
			expect(new Set(messages.map((m) => m.to)).size).toBe(1000);
			expect(retried.status).toBe('success');
		},
		10 * MINUTES,
	);
});
