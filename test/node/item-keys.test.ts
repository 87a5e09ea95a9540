/**
 * The Idempotency Key option on Send Batch: an expression that gives each item its own key means one
 * message per key, ever, for this node; a fixed text is the key of the whole call, and the service's
 * `idempotency_key_reused` answer to it means "already sent earlier with other content". n8n-core's
 * engine, real HTTP, n8n's deduplication service over an in-memory port of its store (dedup-store.ts).
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, pairedIndex, people } from './support.ts';

// One sandbox and one store for the file, both emptied before each test.
const sb = useSandbox({ job_rows_per_second: 5000 });
useDedupStore();

const perOrder = { ...batchParameters, options: { idempotencyKey: '={{ $json.orderId }}' } };

function orders(ids: string[]) {
	return ids.map((orderId, n) => ({ ...people(1, n)[0]!, orderId }));
}

test('per-item keys: a later campaign to the same ids sends only the new ids, in other executions, with other text; never idempotency_key_reused', async () => {
	const first = await runNode({ parameters: perOrder, items: orders(['A', 'B', 'C']), credentials: credentialsFor(sb), trigger: { ts: 1 } });
	expect(first.outputs[0]!.every((i) => typeof i.json.id === 'string')).toBe(true);
	const nextCampaign = { ...perOrder, body: '=Second campaign {{ $json.n }}' };
	const second = await runNode({ parameters: nextCampaign, items: orders(['A', 'B', 'D']), credentials: credentialsFor(sb), trigger: { ts: 2 } });
	expect(second.error).toBeUndefined();
	const out = second.outputs[0]!;
	expect(out.map((i) => [pairedIndex(i), i.json.sentEarlier === true])).toEqual([[0, true], [1, true], [2, false]]);
	expect(typeof out[2]!.json.id).toBe('string');
	expect(second.hints.join('\n')).toMatch(/2 of 3 items were already sent earlier \(same Idempotency Key\).*items 0–1/);
	expect(sb.control.summary().messages).toBe(4);
	expect(ledgerRows(sb).messages.map((m) => m.body)).toEqual(['Body for 0', 'Body for 1', 'Body for 2', 'Second campaign 2']);
});

test('per-item keys over 1,200 items (3 chunks): the key is read for every item; a re-run sends nothing new', async () => {
	const items = people(1200).map((p) => ({ ...p, orderId: `ord-${p.n}` }));
	await runNode({ parameters: perOrder, items, credentials: credentialsFor(sb), trigger: { ts: 1 } });
	const again = await runNode({ parameters: perOrder, items, credentials: credentialsFor(sb), trigger: { ts: 9 } });
	expect(again.outputs[0]!.every((i) => i.json.sentEarlier === true)).toBe(true);
	expect(sb.control.summary().messages).toBe(1200);
});

test('per-item keys repeated within one input: the later item fails with duplicate_idempotency_key, nothing is sent for it', async () => {
	const { outputs } = await runNode({ parameters: perOrder, items: orders(['A', 'B', 'A']), credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(outputs[0]!.map(pairedIndex)).toEqual([0, 1]);
	expect(outputs[1]!.map(pairedIndex)).toEqual([2]);
	expect(outputs[1]![0]!.json.error).toMatch(/^duplicate_idempotency_key: Item 2 has the same Idempotency Key as item 0/);
	expect(sb.control.summary().messages).toBe(2);
});

test('a fixed key reused for a new text: every chunk answered idempotency_key_reused is reported sent earlier, the node succeeds', async () => {
	const fixed = { ...batchParameters, options: { idempotencyKey: 'campaign-2026-11' } };
	const items = people(1200);
	await runNode({ parameters: fixed, items, credentials: credentialsFor(sb) });
	const again = await runNode({ parameters: { ...fixed, body: '=Reworded {{ $json.n }}' }, items, credentials: credentialsFor(sb), trigger: { ts: 2 } });
	expect(again.error).toBeUndefined();
	expect(again.outputs[0]!).toHaveLength(1200);
	expect(again.outputs[0]!.every((i) => i.json.sentEarlier === true)).toBe(true);
	expect(again.hints.join('\n')).toContain('1200 of 1200 items were already sent earlier (with other content under the same Idempotency Key)');
	expect(sb.control.summary().messages).toBe(1200);
});
