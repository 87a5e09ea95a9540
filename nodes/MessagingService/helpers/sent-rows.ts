/**
 * Which rows this node already sent, when each row has its own key (the Idempotency Key option with
 * values that differ, or Send's key field): a row's identity outlives the run, so it carries two markers
 * in n8n's store (marker-store.ts):
 * - `a:<slot>` attempted — recorded before the row is first sent, kept;
 * - `p:<slot>` pending   — recorded with it, removed only after the service committed the row.
 * One check-and-record of both markers of every row then tells the three states apart: never attempted
 * (a new), attempted but not known sent (a and p seen: send again, with the key that replays it), sent
 * (a seen, p new: skip; the p marker the check just wrote is removed at once). A row the service refused
 * loses both markers, so a corrected retry sends it. Keys derived from the run record groups of rows
 * instead (sent-groups.ts).
 *
 * Nothing is marked sent before the service committed it. If n8n dies between the commit and the
 * record, the row is still pending: the retry sends its chunk again with the same deterministic key
 * and the service replays it. If n8n dies between a retry's check and its removal of a sent row's new
 * p marker, that row is sent again under its deterministic key: replayed, unless its content was also
 * edited (the one case left to the keys alone).
 *
 * Bounded: n8n keeps the last STORE_MAX_ENTRIES markers per node and drops the oldest. A row whose
 * markers were dropped reads "never attempted": it is sent under its key, and the service replays an
 * unchanged one (for its idempotency retention). Dropping never makes a row read "sent": markers are
 * written attempted-first, so the oldest to go is always an `a:` before its `p:` marker.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { markerStore, storeFailure } from './marker-store.ts';

export interface SentRows {
	/** False when the store is absent or failed: rows cannot be tied to earlier runs. */
	readonly tied: boolean;
	/** Why the store could not be used (for the hint). */
	readonly reason?: string;
	/** The rows (caller's index) sent by an earlier run. */
	readonly sentEarlier: ReadonlySet<number>;
	/**
	 * The rows to send, as the lists to hand the client one after another: a chunk an earlier run may
	 * have committed goes again with the same rows, so under the same key, and the service replays it.
	 */
	readonly batches: readonly (readonly number[])[];
	/** The service committed these rows. Queued; `settle` waits for it. */
	committed(rows: readonly number[]): void;
	/** The service refused these rows (or never got them): a corrected retry sends them. */
	refused(rows: readonly number[]): void;
	/** Waits for the queued writes; the first write that failed, if any. */
	settle(): Promise<string | undefined>;
}

/** Rows that cannot be tied to earlier runs: all of them go, in order, under their keys. */
export function untiedRows(rows: readonly number[], reason: string): SentRows {
	return { tied: false, reason, sentEarlier: new Set(), batches: [rows], committed() {}, refused() {}, settle: async () => undefined };
}

const attempted = (slot: string) => `a:${slot}`;
const pending = (slot: string) => `p:${slot}`;

/**
 * Checks the rows' slots (`slots[i]` belongs to `rows[i]`, each row's lasting identity) and marks the
 * ones not yet sent as attempted and pending. Call right before sending.
 */
export async function openSentRows(ctx: IExecuteFunctions, rows: readonly number[], slots: readonly string[]): Promise<SentRows> {
	const store = markerStore(ctx);
	if (typeof store === 'string') return untiedRows(rows, store);
	const slotOf = new Map(rows.map((row, i) => [row, slots[i]!]));
	const pendingOf = (list: Iterable<number>) => [...list].map((row) => pending(slotOf.get(row)!));
	let seen: Set<string>;
	try {
		seen = await store.check(slots.flatMap((slot) => [attempted(slot), pending(slot)]));
	} catch (error) {
		return untiedRows(rows, storeFailure(error));
	}
	const wasAttempted = rows.filter((row) => seen.has(attempted(slotOf.get(row)!)));
	const sentEarlier = new Set(wasAttempted.filter((row) => !seen.has(pending(slotOf.get(row)!))));
	const pendingEarlier = new Set(wasAttempted.filter((row) => !sentEarlier.has(row)));
	// The check just marked the sent rows pending again: undo that before anything is recorded as sent.
	store.write(pendingOf(sentEarlier), 'remove');
	const open = rows.filter((row) => !sentEarlier.has(row));
	// Rows known to be attempted go first: a chunk committed by a run that died before recording it then
	// gets the same rows, so the same key.
	const order = [...open.filter((row) => pendingEarlier.has(row)), ...open.filter((row) => !pendingEarlier.has(row))];
	return {
		tied: true,
		sentEarlier,
		batches: order.length === 0 ? [] : [order],
		committed: (done) => store.write(pendingOf(done), 'remove'),
		// A refused row's chunk was committed, so its p marker went with it: forget the row (never attempted).
		refused: (done) => store.write([...done.map((row) => attempted(slotOf.get(row)!)), ...pendingOf(done)], 'remove'),
		settle: () => store.settle(),
	};
}
