/**
 * Retry On Fail and re-runs never send twice: the node derives one Idempotency-Key per chunk from the
 * trigger data the run started from, the node id, the run index, the chunk's rows and its payload
 * (keys alone: n8n-core's engine has no deduplication store unless a test installs one).
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { batchParameters, credentialsFor, pairedIndex, people, startSandbox } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

test('Retry On Fail after a 500 that committed: n8n re-runs the node, the service replays, one message per item', async () => {
	// Both chunks' calls commit and answer 500; the client's one retry of each also gets 500; the node
	// fails; n8n retries it.
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_after_commit', count: 4 });
	const items = people(700);
	const { outputs, error, run } = await runNode({
		parameters: batchParameters,
		items,
		credentials: credentialsFor(sb),
		retryOnFail: true,
		maxTries: 3,
		waitBetweenTries: 0,
	});
	expect(error).toBeUndefined();
	expect(run.data.resultData.runData['Messaging Service']).toHaveLength(1);
	// Every injected 500 fired (the node's first try failed) and n8n's second try went out again.
	expect(sb.control.faults()[0]).toMatchObject({ fired: 4 });
	expect(ledgerRows(sb).requests).toBe(6); // try 1: 2 chunks × 2 attempts; try 2: 2 chunks, replayed
	const main = outputs[0]!;
	expect(main.map(pairedIndex)).toEqual(items.map((_, i) => i));
	const summary = sb.control.summary();
	expect(summary.messages).toBe(700);
	expect(summary.duplicates_detected).toBe(0);
	expect(Object.values(summary.messages_by_idempotency_key).sort()).toEqual([200, 500]);
	// n8n's retry was answered from the idempotency store: nothing went out twice.
	expect(main.every((item) => item.json.replayed === true)).toBe(true);
});

test('the same trigger data run twice (any execution id) sends once; other trigger data sends again', async () => {
	const items = people(520);
	const first = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), executionId: 'exec-fixed-1' });
	const second = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), executionId: 'exec-fixed-1' });
	expect(sb.control.summary()).toMatchObject({ messages: 520, duplicates_detected: 0 });
	expect(second.outputs[0]!.map((i) => i.json.id)).toEqual(first.outputs[0]!.map((i) => i.json.id));
	expect(second.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
	const keys = ledgerRows(sb).messages.map((m) => m.idempotency_key);
	expect(new Set(keys).size).toBe(2);
	expect(keys.every((k) => /^n8n-[0-9a-f]{48}$/.test(k ?? ''))).toBe(true);

	// Another execution with the same trigger data is the same send (n8n's recoveries are new executions).
	await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), executionId: 'exec-fixed-2' });
	expect(sb.control.summary().messages).toBe(520);
	await runNode({ parameters: batchParameters, items: items.map((item) => ({ ...item, tick: 2 })), credentials: credentialsFor(sb), executionId: 'exec-fixed-3' });
	expect(sb.control.summary().messages).toBe(1040);
});

test('a chunk whose content changed gets a new key (no idempotency_key_reused), an unchanged chunk replays', async () => {
	const items = people(600);
	await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), executionId: 'exec-edit' });
	// The node's body edited for one item (the trigger data is the same).
	const edited = { ...batchParameters, body: '=Body for {{ $json.n }}{{ $json.n === 550 ? " (changed)" : "" }}' };
	const again = await runNode({ parameters: edited, items, credentials: credentialsFor(sb), executionId: 'exec-edit-2' });
	expect(again.error).toBeUndefined();
	const out = again.outputs[0]!;
	expect(out.slice(0, 500).every((i) => i.json.replayed === true)).toBe(true);
	expect(out.slice(500).every((i) => i.json.replayed === false)).toBe(true);
	expect(sb.control.summary().messages).toBe(700);
});

test('an Idempotency Key given by expression is used per item (Send), and re-runs in new executions replay it', async () => {
	const parameters = {
		resource: 'message',
		operation: 'send',
		channel: 'email',
		to: '={{ $json.email }}',
		subject: 'Order update',
		body: '=Order {{ $json.n }} shipped',
		options: { idempotencyKey: '={{ "order-" + $json.n }}' },
	};
	const items = people(3);
	await runNode({ parameters, items, credentials: credentialsFor(sb), executionId: 'exec-a' });
	const again = await runNode({ parameters, items, credentials: credentialsFor(sb), executionId: 'exec-b' });
	expect(again.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
	expect(ledgerRows(sb).messages.map((m) => m.idempotency_key)).toEqual(['order-0', 'order-1', 'order-2']);
});

test('Contact → Import re-run in the same execution queues no second job', async () => {
	const items = Array.from({ length: 5 }, (_, i) => ({ email: `r${i}@example.com` }));
	const parameters = { resource: 'contact', operation: 'import', waitForCompletion: false };
	await runNode({ parameters, items, credentials: credentialsFor(sb), executionId: 'exec-import' });
	const again = await runNode({ parameters, items, credentials: credentialsFor(sb), executionId: 'exec-import' });
	expect(again.outputs[0]![0]!.json.replayed).toBe(true);
	expect(ledgerRows(sb).jobs).toHaveLength(1);
});
