/**
 * Idempotency under Send Batch's "Map Automatically": each item's idempotencyKey field (or the field
 * named under Field Names) is its key exactly as an expression giving each item its key would be (one
 * message per key, ever, for this node); without a key field the keys derive from the run, and a re-run
 * sends nothing twice. n8n-core's engine, real HTTP, n8n's deduplication service (dedup-store.ts).
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, pairedIndex } from './support.ts';

const sb = useSandbox({ job_rows_per_second: 5000 });
useDedupStore();

const auto = { resource: 'message', operation: 'sendBatch', fieldMapping: 'autoMapInputData', channel: 'email' };

function keyed(keys: Array<string | number>, text = 'First') {
	return keys.map((idempotencyKey, n) => ({ to: `user${n}@example.com`, body: `${text} ${n}`, idempotencyKey }));
}

test('per-item keys from the idempotencyKey field: a later campaign in another execution sends only the new keys', async () => {
	const first = await runNode({ parameters: auto, items: keyed(['A', 'B', 'C']), credentials: credentialsFor(sb), trigger: { ts: 1 } });
	expect(first.outputs[0]!.every((i) => typeof i.json.id === 'string')).toBe(true);
	const second = await runNode({ parameters: auto, items: keyed(['A', 'B', 'D'], 'Second'), credentials: credentialsFor(sb), trigger: { ts: 2 } });
	expect(second.error).toBeUndefined();
	expect(second.outputs[0]!.map((i) => [pairedIndex(i), i.json.sentEarlier === true])).toEqual([[0, true], [1, true], [2, false]]);
	expect(second.hints.join('\n')).toMatch(/2 of 3 items were already sent earlier \(same Idempotency Key\).*items 0–1/);
	expect(ledgerRows(sb).messages.map((m) => m.body)).toEqual(['First 0', 'First 1', 'First 2', 'Second 2']);
});

test('a renamed key field is the same key as the expression {{ $json.orderId }}: what one mode sent, the other does not send again', async () => {
	const items = [1, 2, 3].map((orderId, n) => ({ email: `user${n}@example.com`, name: `User ${n}`, n, orderId }));
	await runNode({ parameters: { ...batchParameters, options: { idempotencyKey: '={{ $json.orderId }}' } }, items, credentials: credentialsFor(sb), trigger: { ts: 1 } });
	expect(sb.control.summary().messages).toBe(3);
	const more = [...items, { email: 'user3@example.com', name: 'User 3', n: 3, orderId: 4 }].map(({ email, n, orderId }) => ({ email, text: `Auto ${n}`, orderId }));
	const parameters = { ...auto, fieldNames: { toField: 'email', bodyField: 'text', idempotencyKeyField: 'orderId' } };
	const again = await runNode({ parameters, items: more, credentials: credentialsFor(sb), trigger: { ts: 2 } });
	expect(again.outputs[0]!.map((i) => i.json.sentEarlier === true)).toEqual([true, true, true, false]);
	expect(ledgerRows(sb).messages.map((m) => m.body)).toEqual(['Body for 0', 'Body for 1', 'Body for 2', 'Auto 3']);
});

test('per-item keys over 1,200 items (3 chunks): a re-run with other trigger data sends nothing new', async () => {
	const items = keyed(Array.from({ length: 1200 }, (_, n) => `ord-${n}`));
	await runNode({ parameters: auto, items, credentials: credentialsFor(sb), trigger: { ts: 1 } });
	const again = await runNode({ parameters: auto, items, credentials: credentialsFor(sb), trigger: { ts: 9 } });
	expect(again.outputs[0]!).toHaveLength(1200);
	expect(again.outputs[0]!.every((i) => i.json.sentEarlier === true)).toBe(true);
	expect(sb.control.summary().messages).toBe(1200);
});

test('a repeated key fails the later item (duplicate_idempotency_key); an item without a key among keyed items fails (missing_idempotency_key)', async () => {
	const items: Record<string, unknown>[] = keyed(['A', 'B', 'A', 'C']);
	delete items[3]!.idempotencyKey;
	const { outputs } = await runNode({ parameters: auto, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(outputs[0]!.map(pairedIndex)).toEqual([0, 1]);
	expect(outputs[1]!.map((e) => [pairedIndex(e), (e.json.details as { code: string }).code])).toEqual([[2, 'duplicate_idempotency_key'], [3, 'missing_idempotency_key']]);
	expect(sb.control.summary().messages).toBe(2);
});

test('no key field: keys derive from the run, and the same trigger data run again sends nothing twice', async () => {
	const items = keyed(['', '', '']).map(({ to, body }) => ({ to, body }));
	await runNode({ parameters: auto, items, credentials: credentialsFor(sb), trigger: { ts: 5 } });
	const again = await runNode({ parameters: auto, items, credentials: credentialsFor(sb), trigger: { ts: 5 } });
	expect(again.outputs[0]!.map((i) => i.json.sentEarlier)).toEqual([true, true, true]);
	expect(sb.control.summary().messages).toBe(3);
	expect(sb.control.summary().duplicates_detected).toBe(0);
});

test('no item has a key field: Options → Idempotency Key applies (a fixed text is the key of the whole call)', async () => {
	const parameters = { ...auto, options: { idempotencyKey: 'campaign-2026-11' } };
	const items = keyed(['', '']).map(({ to, body }) => ({ to, body }));
	await runNode({ parameters, items, credentials: credentialsFor(sb), trigger: { ts: 1 } });
	const reworded = items.map((item) => ({ ...item, body: `${item.body} reworded` }));
	const again = await runNode({ parameters, items: reworded, credentials: credentialsFor(sb), trigger: { ts: 2 } });
	expect(again.outputs[0]!.map((i) => i.json.sentEarlier)).toEqual([true, true]);
	expect(again.hints.join('\n')).toContain('with other content under the same Idempotency Key');
	expect(sb.control.summary().messages).toBe(2);
});
