/**
 * Send Batch with Mapping "Map Automatically" inside a REAL n8n 2.41.1: our package built, packed and
 * installed as n8n's installer does; Manual Trigger → Code (orders with their own field names) → Send
 * Batch reading each item's fields by name (Field Names: email as To, text as Body, title as Subject,
 * medium as Channel, orderId as the per-item key), run by `n8n execute` against a sandbox on 127.0.0.1.
 * A second execution of the same workflow sends nothing twice: n8n's own deduplication store holds the
 * per-item keys. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import { ledgerRows } from '../../support/ledger-rows.ts';
import { realN8nSkipped } from '../../support/system.ts';
import {
	executeWorkflow,
	importWorkflow,
	manualWorkflow,
	MESSAGING_PACKAGE as PACKAGE,
	outputItems,
	stopwatch,
	usePackagedN8n,
} from './n8n-harness.ts';

const MINUTES = 60_000;
const describeE2e = realN8nSkipped() ? describe.skip : describe;

/** `count` orders: item 3 has no e-mail field, item 5 goes out on WhatsApp by its own medium field. */
const ordersCode = (count: number, word: string) => `return Array.from({ length: ${count} }, (_, n) => {
	if (n === 3) return { json: { mail: 'renamed@example.com', text: 'no email field', orderId: 'ord-3' } };
	if (n === 5) return { json: { email: '+4915112345678', text: 'WhatsApp ' + n, title: 'dropped on WhatsApp', medium: 'whatsapp', orderId: 'ord-5' } };
	return { json: { email: 'buyer' + n + '@example.com', text: 'Order ' + n + ' ${word}', title: 'Order ' + n, orderId: 'ord-' + n } };
});`;

function autoMapWorkflow(orders: number, word: string) {
	return manualWorkflow({
		id: 'msgAutoMapWf',
		nodes: [
			{ name: 'Orders', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: ordersCode(orders, word) } },
			{
				name: 'Send Batch',
				type: `${PACKAGE}.messagingService`,
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'message',
					operation: 'sendBatch',
					fieldMapping: 'autoMapInputData',
					channel: 'email',
					fieldNames: { toField: 'email', bodyField: 'text', subjectField: 'title', channelField: 'medium', idempotencyKeyField: 'orderId' },
				},
				credentials: { messagingServiceApi: { id: 'msgSandboxCred', name: 'Messaging Service (sandbox)' } },
			},
		],
	});
}

describeE2e('Send Batch "Map Automatically" in a real n8n 2.41.1', () => {
	const { timings, time } = stopwatch();
	const suite = usePackagedN8n({ name: 'automap', sandbox: { job_rows_per_second: 2000 }, time });
	afterAll(() => console.log(`n8n Map Automatically e2e timings (ms): ${JSON.stringify(timings)}`));

	test(
		'each item’s own fields are sent, the item without its To field is refused at its index, and a later run with new text sends only the new order',
		async () => {
			const workflow = autoMapWorkflow(600, 'shipped');
			await importWorkflow(suite.home, workflow);

			const first = await time('execute (first)', () => executeWorkflow(suite.home, workflow.id, { timeoutMs: 4 * MINUTES }));
			const sent = outputItems(first.runData, 'Send Batch', 0);
			const refused = outputItems(first.runData, 'Send Batch', 1);
			expect(sent).toHaveLength(599);
			expect(sent.every((j) => typeof j.id === 'string' && (j.id as string).startsWith('msg_'))).toBe(true);
			expect(refused).toHaveLength(1);
			expect(refused[0]!.error).toBe('invalid_input: Item 3 has no field "email" (To)');
			expect(refused[0]!.message).toMatch(/ — item 3$/);
			expect(first.runData['Send Batch']!.at(-1).data.main[1][0].pairedItem.item).toBe(3);

			const ledger = ledgerRows(suite.sb);
			expect(ledger.requests).toBe(2); // 599 messages: 500 + 99
			const byTo = new Map(ledger.messages.map((m) => [m.to, m]));
			expect(byTo.size).toBe(599);
			expect(byTo.get('buyer0@example.com')).toMatchObject({ channel: 'email', subject: 'Order 0', body: 'Order 0 shipped', idempotency_key: expect.any(String) });
			expect(byTo.get('buyer599@example.com')).toMatchObject({ channel: 'email', subject: 'Order 599', body: 'Order 599 shipped' });
			expect(byTo.get('+4915112345678')).toMatchObject({ channel: 'whatsapp', subject: null, body: 'WhatsApp 5' });
			expect(byTo.has('renamed@example.com')).toBe(false);

			// A new execution with other text and one more order: keys derived from the run would send all
			// 600 again; the per-item keys in n8n's own deduplication store send only ord-600.
			await importWorkflow(suite.home, autoMapWorkflow(601, 'reminder'));
			const second = await time('execute (second)', () => executeWorkflow(suite.home, workflow.id, { timeoutMs: 4 * MINUTES }));
			const again = outputItems(second.runData, 'Send Batch', 0);
			expect(again).toHaveLength(600);
			expect(again.filter((j) => j.sentEarlier !== true).map((j) => j.to)).toEqual(['buyer600@example.com']);
			expect(outputItems(second.runData, 'Send Batch', 1).map((j) => j.error)).toEqual(['invalid_input: Item 3 has no field "email" (To)']);
			expect(suite.sb.control.summary()).toMatchObject({ messages: 600, duplicates_detected: 0 });
			expect(ledgerRows(suite.sb).messages.filter((m) => m.body.endsWith('reminder')).map((m) => m.to)).toEqual(['buyer600@example.com']);
		},
		10 * MINUTES,
	);
});
