/**
 * The node's access to n8n's deduplication store: writes queue in order, and the ones that queue up behind
 * a write in flight go as one call (n8n reads and rewrites the node's whole record on every call).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { markerStore } from '../../nodes/MessagingService/helpers/marker-store.ts';

function fakeStore() {
	const calls: Array<[string, string[]]> = [];
	let release: () => void = () => undefined;
	let held = Promise.resolve();
	const helpers = {
		checkProcessedAndRecord: async (values: string[]) => {
			calls.push(['add', [...values]]);
			return { new: values, processed: [] };
		},
		removeProcessed: async (values: string[]) => {
			calls.push(['remove', [...values]]);
			await held;
		},
	};
	const hold = () => (held = new Promise<void>((resolve) => (release = resolve)));
	return { ctx: { helpers } as unknown as IExecuteFunctions, calls, hold, release: () => release() };
}

test('removals that queue behind one in flight go as one call, in order, and an add is never merged into a removal', async () => {
	const fake = fakeStore();
	const store = markerStore(fake.ctx);
	if (typeof store === 'string') throw new Error(store);
	fake.hold();
	store.write(['p:1'], 'remove');
	await Promise.resolve(); // the first removal starts and waits on the database
	store.write(['p:2'], 'remove');
	store.write(['p:3'], 'remove');
	store.write(['r:3', 'p:x'], 'add');
	store.write(['p:4'], 'remove');
	fake.release();
	expect(await store.settle()).toBeUndefined();
	expect(fake.calls).toEqual([
		['remove', ['p:1']],
		['remove', ['p:2', 'p:3']],
		['add', ['r:3', 'p:x']],
		['remove', ['p:4']],
	]);
});

test('without the store (an n8n without the deduplication service) it says why', () => {
	expect(markerStore({ helpers: {} } as unknown as IExecuteFunctions)).toBe('this n8n has no deduplication store');
});
