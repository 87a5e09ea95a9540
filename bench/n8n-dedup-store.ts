/**
 * `node bench/n8n-dedup-store.ts [--items 5000] [--rounds 5]`: what n8n's deduplication store costs the
 * node's Send Batch. Runs Seed → Messaging Service on n8n-core's real engine against the sandbox over
 * real HTTP (test/node/harness.ts), with the store behind `helpers.checkProcessedAndRecord` being the
 * in-memory port of n8n's database store (test/node/dedup-store.ts: same hashing, same JSON record read
 * and rewritten on every call, same linear removal). Prints:
 * - the store's markers and bytes after 10,000 messages (two sends of 5,000), and at most during a send;
 * - the median wall time of a 5,000-message send with the store and without it (the node then falls
 *   back to keys alone), alternated round by round, and their ratio.
 * `--per-item` sets Options → Idempotency Key to {{ $json.orderId }} (one kept marker per key sent).
 * `--history N` fills the store with N markers before each timed send (a node with earlier sends).
 * The real store adds a database round trip per call (3 + one per 500-message chunk); SQLite or
 * PostgreSQL time is not in this figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

// n8n-workflow's ESM build cannot be loaded by Node itself (extensionless imports), and n8n-core
// requires its CommonJS build: resolve it as `require` does, so there is one copy (as under Jest).
const hook = `export async function resolve(specifier, context, next) {
	if (specifier === 'n8n-workflow') return next(specifier, { ...context, conditions: ['require', 'node', 'default'] });
	return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

async function main(): Promise<void> {
	// n8n-core's user folder: our own, removed at the end (test/node/env.ts leaves it to Jest otherwise).
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-dedup-bench-'));
	process.env.N8N_USER_FOLDER = userFolder;
	const { runNode } = await import('../test/node/harness.ts');
	const { dedupStore } = await import('../test/node/dedup-store.ts');
	const { batchParameters, credentialsFor, people, startSandbox } = await import('../test/node/support.ts');

	const { values } = parseArgs({ options: { items: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' }, history: { type: 'string', default: '0' }, 'per-item': { type: 'boolean', default: false } } });
	const items = Number(values.items);
	const rounds = Number(values.rounds);
	/** Markers already in the store before each timed send (earlier sends of the node). */
	const history = Number(values.history);
	/** Options → Idempotency Key = {{ $json.orderId }}: per-item keys, one kept marker per key ever sent. */
	const perItem = values['per-item'];
	const parameters = perItem ? { ...batchParameters, options: { idempotencyKey: '={{ $json.orderId }}' } } : batchParameters;

	const sb = await startSandbox({ window_seconds: 60 } as never);
	const store = dedupStore();
	const credentials = credentialsFor(sb);
	let tick = 0;

	async function send(withStore: boolean): Promise<number> {
		sb.control.reset();
		store.enabled = withStore;
		const startedAt = performance.now();
		tick += 1;
		const list = people(items).map((p) => ({ ...p, orderId: `t${tick}-${p.n}` }));
		const { error } = await runNode({ parameters, items: list, credentials, trigger: { tick } });
		const ms = performance.now() - startedAt;
		if (error) throw new Error(`send failed: ${error.message}`);
		return ms;
	}

	// Size: two sends of `items` each (10,000 messages by default), and the most held during one.
	store.reset();
	let peak = { entries: 0, bytes: 0 };
	const original = store.removeProcessed.bind(store);
	store.removeProcessed = async (...args) => {
		const size = store.size();
		if (size.entries > peak.entries) peak = size;
		return await original(...args);
	};
	await send(true);
	await send(true);
	const after = store.size();
	store.removeProcessed = original;

	const times: { with: number[]; without: number[] } = { with: [], without: [] };
	await send(false); // warm-up
	for (let round = 0; round < rounds; round++) {
		store.reset();
		const earlier = Array.from({ length: history }, (_, i) => `a:earlier-${i}`);
		if (history > 0) await store.checkProcessedAndRecord(earlier, 'node', { workflow: { id: 'wf-node-test', active: false }, node: { id: 'messaging-node-id' } as never }, { mode: 'entries', maxEntries: 50_000 });
		times.with.push(await send(true));
		times.without.push(await send(false));
	}
	const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
	const withMs = median(times.with);
	const withoutMs = median(times.without);

	console.log(`${perItem ? 'per-item keys' : 'derived keys'}: store after ${2 * items} messages: ${after.entries} markers, ${after.bytes} bytes (${(after.bytes / (2 * items)).toFixed(1)} bytes per message)`);
	console.log(`store at most during a send: ${peak.entries} markers, ${peak.bytes} bytes`);
	console.log(`${items}-message send (${history} markers already stored), median of ${rounds}: ${withMs.toFixed(0)} ms with the store, ${withoutMs.toFixed(0)} ms without: ratio ${(withMs / withoutMs).toFixed(3)}`);
	await sb.close();
	rmSync(userFolder, { recursive: true, force: true });
}

void main();
