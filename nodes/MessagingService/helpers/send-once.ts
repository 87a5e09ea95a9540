/**
 * One bulk write that never sends a row twice across n8n's recoveries: rows an earlier run sent are left
 * out (sent-rows.ts, sent-groups.ts), the rest go out under deterministic keys (idempotency.ts), each committed chunk is
 * recorded as soon as it is, and a chunk the service answers `idempotency_key_reused` (its key was sent
 * before with another body) is read as "already sent earlier", never as a failure to send.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { BulkOutcome, ChunkEvent, ItemResult, RequestOptions } from '../../../src/index.ts';
import { sha256Hex } from '../../../src/index.ts';
import type { RowKeys } from './idempotency.ts';
import { openSentGroups } from './sent-groups.ts';
import { openSentRows } from './sent-rows.ts';
import type { SentRows } from './sent-rows.ts';

export type SendRows = (rows: readonly number[], options: Pick<RequestOptions, 'idempotencyKey' | 'onChunk'>) => Promise<BulkOutcome>;

export interface SendOnceOutcome {
	/** The client's result of each row sent now (`index` is the caller's row). */
	results: ItemResult[];
	/** Rows n8n's store says an earlier run sent: not sent now. */
	sentEarlier: number[];
	/** Rows whose call the service refused as `idempotency_key_reused`: sent earlier with other content. */
	reused: number[];
	/** The whole-call error that stopped the write (not a reused key). */
	error?: BulkOutcome['error'];
	/** Why rows could not be tied to earlier runs (no store, a store failure); undefined when they were. */
	untied?: string;
}

const REUSED = 'idempotency_key_reused';

function isReused(result: ItemResult): boolean {
	return result.status === 'failed' && result.wholeCall && result.error.code === REUSED;
}

/** Derived keys: one attempt names this run's exact rows (another set of rows is another send), recorded by group. */
function openStore(ctx: IExecuteFunctions, rows: readonly number[], keys: Exclude<RowKeys, { mode: 'call' }>): Promise<SentRows> {
	const slots = rows.map(keys.slotOf);
	if (keys.mode === 'perItem') return openSentRows(ctx, rows, slots);
	return openSentGroups(ctx, rows, slots, sha256Hex(`attempt\u0000${slots.join(',')}`), keys.perCall);
}

export async function sendOnce(ctx: IExecuteFunctions, rows: readonly number[], keys: RowKeys, send: SendRows, onChunk?: (event: ChunkEvent) => void): Promise<SendOnceOutcome> {
	const store: SentRows | undefined = keys.mode === 'call' || rows.length === 0 ? undefined : await openStore(ctx, rows, keys);
	const results: ItemResult[] = [];
	const reused: number[] = [];
	let error: BulkOutcome['error'];
	// A reused key stops the client's run; the chunks it left out go again, each under the key it had.
	let batches: Array<{ rows: readonly number[]; key: RequestOptions['idempotencyKey'] }> = (store ? store.batches : rows.length === 0 ? [] : [rows]).map((list) => ({ rows: list, key: keys.mode === 'call' ? keys.key : keys.keyFor(list) }));
	while (batches.length > 0) {
		const next: typeof batches = [];
		for (const batch of batches) {
			const outcome = await send(batch.rows, {
				idempotencyKey: batch.key,
				onChunk: (event) => {
					onChunk?.(event);
					if (event.status === 'done') store?.committed(batch.rows.slice(event.offset, event.offset + event.count));
				},
			});
			const stoppedByReuse = outcome.error?.code === REUSED;
			const left = new Map<string, number[]>();
			for (const result of outcome.results) {
				const row = batch.rows[result.index]!;
				if (isReused(result)) reused.push(row);
				else if (result.status === 'not_attempted' && stoppedByReuse) left.set(result.call.idempotencyKey, [...(left.get(result.call.idempotencyKey) ?? []), row]);
				else {
					result.index = row; // the client's result is this call's own: renumbered in place, not copied
					results.push(result);
				}
			}
			if (outcome.error && !stoppedByReuse) error ??= outcome.error;
			for (const [key, leftRows] of left) next.push({ rows: leftRows, key: () => key });
		}
		batches = next;
	}
	if (store) {
		const refused = results.filter((r) => r.status === 'failed' || r.status === 'not_attempted').map((r) => r.index);
		store.refused(refused);
	}
	const failure = store ? await store.settle() : undefined;
	const untied = store && !store.tied ? store.reason : failure;
	return { results, sentEarlier: [...(store?.sentEarlier ?? [])], reused, error, untied };
}
