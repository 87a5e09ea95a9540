/**
 * Idempotency keys of the node and the identity of each row in n8n's store (sent-rows.ts).
 *
 * Default (no Idempotency Key): keys derive from the run's lineage (lineage.ts: the workflow and the
 * trigger data it started from, the node, `$runIndex`), the rows a chunk holds and the chunk's payload.
 * Every n8n recovery replays the trigger data, so it derives the same keys and the service replays what
 * went out. A row's store identity is the lineage, its index and its input item: a Retry whose node
 * parameters were edited still recognises the rows it sent.
 *
 * The Idempotency Key option:
 * - values that differ across items (an expression such as {{ $json.orderId }}, or each item's key
 *   field with Send's "Map Automatically") are PER ITEM: each
 *   item's key is its identity in the store, and a chunk's key derives from its items' keys;
 * - one value for every item (a fixed text, or a single item) is the key of the whole call, as the
 *   service defines it (chunks add ":chunk-N").
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { canonicalJson, MAX_RECIPIENTS, n8nChunkKeys, sha256Hex } from '../../../src/index.ts';
import type { RequestOptions } from '../../../src/index.ts';
import { itemKeyChunkKeys } from '../../../src/adapter-keys.ts';
import { runLineage } from './lineage.ts';
import type { Lineage } from './lineage.ts';

export type KeyOption = RequestOptions['idempotencyKey'];

/** How the rows of one bulk write (Send, `sendBatch`) are keyed. */
export type RowKeys =
	| { mode: 'derived'; lineage: Lineage; slotOf: (row: number) => string; keyFor: (rows: readonly number[]) => KeyOption; perCall: number }
	| { mode: 'perItem'; lineage: Lineage; keyOf: (row: number) => string; slotOf: (row: number) => string; keyFor: (rows: readonly number[]) => KeyOption }
	| { mode: 'call'; lineage: Lineage; key: string; keyFor: () => KeyOption };

/**
 * The keys of a bulk write over `rows` (caller's indexes). `givenKeyOf` is the key given for EVERY row
 * (the Idempotency Key option, or each item's key field with Map Automatically): values that differ are
 * per item, one value is the call's key, none derives keys from the run. `perCall`: the client's count
 * per call of this write (its chunks then lie inside groups of that many rows: sent-groups.ts).
 */
export function rowKeys(ctx: IExecuteFunctions, operation: string, rows: readonly number[], inputOf: (row: number) => unknown, givenKeyOf: (row: number) => string, perCall: number): RowKeys {
	const lineage = runLineage(ctx);
	const given = rows.map((row) => givenKeyOf(row).trim());
	const varies = given.some((key) => key !== given[0]);
	if (!varies && given.length > 0 && given[0] !== '') {
		const key = given[0]!;
		return { mode: 'call', lineage, key, keyFor: () => key };
	}
	if (varies) {
		const byRow = new Map(rows.map((row, i) => [row, given[i]!]));
		const keyOf = (row: number) => byRow.get(row) ?? '';
		return {
			mode: 'perItem',
			lineage,
			keyOf,
			slotOf: (row) => sha256Hex(canonicalJson(['key', operation, keyOf(row)])),
			keyFor: (sent) => itemKeyChunkKeys({ workflowId: lineage.workflowId, nodeId: lineage.nodeId, operation, keys: sent.map(keyOf) }),
		};
	}
	const base = { lineageId: lineage.id, nodeId: lineage.nodeId, runIndex: lineage.runIndex, operation };
	// canonicalJson([id, nodeId, runIndex, operation, row, input]), its constant head written once.
	const head = canonicalJson([lineage.id, lineage.nodeId, lineage.runIndex, operation]).slice(0, -1);
	return {
		mode: 'derived',
		lineage,
		slotOf: (row) => sha256Hex(`${head},${row},${canonicalJson(inputOf(row) ?? null)}]`),
		keyFor: (sent) => n8nChunkKeys({ ...base, rows: sent }),
		perCall,
	};
}

/**
 * The keys of one Send (one input item, one message to many recipients): a recipient is a row. A key
 * given for the item is the call's key; otherwise keys and store slots derive as for Send (`sendBatch`), from the
 * item, its input and the recipient's place in the list.
 */
export function recipientKeys(lineage: Lineage, userKey: string, itemIndex: number, input: unknown, recipients: readonly string[], content: unknown): RowKeys {
	const given = userKey.trim();
	if (given) return { mode: 'call', lineage, key: given, keyFor: () => given };
	const operation = 'message.send';
	return {
		mode: 'derived',
		lineage,
		slotOf: (row) => sha256Hex(canonicalJson([lineage.id, lineage.nodeId, lineage.runIndex, operation, itemIndex, input ?? null, row, recipients[row]!])),
		keyFor: (sent) => n8nChunkKeys({ lineageId: lineage.id, nodeId: lineage.nodeId, runIndex: lineage.runIndex, operation, itemIndex, context: content, rows: sent }),
		perCall: MAX_RECIPIENTS,
	};
}

/**
 * The key deriver of Contact → Import: the lineage is read once. `userKey` (the field's value) wins when
 * set; chunks then get ":chunk-N".
 */
export function idempotencyKeys(ctx: IExecuteFunctions): (operation: string, userKey: string, itemIndex?: number, payloadContext?: unknown) => KeyOption {
	let lineage: Lineage | undefined;
	return (operation, userKey, itemIndex, payloadContext) => {
		const given = userKey.trim();
		if (given) return given;
		lineage ??= runLineage(ctx);
		return n8nChunkKeys({ lineageId: lineage.id, nodeId: lineage.nodeId, runIndex: lineage.runIndex, operation, itemIndex, context: payloadContext });
	};
}
