/**
 * n8n's deduplication store as the node's sent-row records use it (sent-rows.ts, sent-groups.ts): the
 * Remove Duplicates node's `helpers.checkProcessedAndRecord` / `removeProcessed`, in n8n's own database,
 * written at once, shared by queue-mode workers; scope `node`. It only offers check-AND-record: every
 * marker checked is recorded, so a marker's presence means "not yet confirmed" and confirming removes it.
 *
 * Each call reads and rewrites the node's whole record, and removal finds each marker by a linear search
 * of it: the cost of a write grows with the record, so records are kept small.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** Markers kept per node: n8n drops the oldest beyond it (one write keeps at most its last ones). */
export const STORE_MAX_ENTRIES = 50_000;

const OPTIONS = { mode: 'entries', maxEntries: STORE_MAX_ENTRIES } as const;

type Values = Array<string | number>;

interface DedupHelpers {
	checkProcessedAndRecord?: (values: Values, scope: 'node' | 'workflow', options: typeof OPTIONS) => Promise<{ new: Values; processed: Values }>;
	removeProcessed?: (values: Values, scope: 'node' | 'workflow', options: typeof OPTIONS) => Promise<void>;
}

export interface MarkerStore {
	/** Records the markers not yet there; answers the ones that were. */
	check(values: readonly string[]): Promise<Set<string>>;
	/** Queues a write (add or remove) after the ones queued before; a failure is kept for `settle`. */
	write(values: readonly string[], kind: 'add' | 'remove'): void;
	/** Waits for the queued writes; the first write that failed, if any. */
	settle(): Promise<string | undefined>;
}

export function storeFailure(error: unknown): string {
	return `n8n's deduplication store failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** The node's marker store, or why there is none (an n8n without the deduplication service). */
export function markerStore(ctx: IExecuteFunctions): MarkerStore | string {
	const helpers = ctx.helpers as unknown as DedupHelpers;
	const check = helpers.checkProcessedAndRecord;
	const remove = helpers.removeProcessed;
	if (typeof check !== 'function' || typeof remove !== 'function') return 'this n8n has no deduplication store';
	let queue: Promise<void> = Promise.resolve();
	let failure: string | undefined;
	let waiting: { kind: 'add' | 'remove'; values: string[] } | undefined; // queued, not yet started
	return {
		async check(values) {
			const answer = await check.call(ctx.helpers, [...values], 'node', OPTIONS);
			return new Set(answer.processed.map(String));
		},
		write(values, kind) {
			if (values.length === 0) return;
			// Writes that queue up behind one in flight go as one call (one read and rewrite of the record).
			if (waiting?.kind === kind) {
				waiting.values.push(...values);
				return;
			}
			const entry = { kind, values: [...values] };
			waiting = entry;
			queue = queue.then(async () => {
				if (waiting === entry) waiting = undefined;
				try {
					if (entry.kind === 'add') await check.call(ctx.helpers, entry.values, 'node', OPTIONS);
					else await remove.call(ctx.helpers, entry.values, 'node', OPTIONS);
				} catch (error) {
					failure ??= storeFailure(error);
				}
			});
		},
		async settle() {
			await queue;
			return failure;
		},
	};
}
