/**
 * Idempotency keys of the node. Default: deterministic per chunk, from the execution lineage (the
 * original execution's id, carried into n8n's Retry of it: lineage.ts), the node id, the run index, the
 * operation, the item (for per-item writes), the chunk index and the chunk's payload.
 * "Retry On Fail" re-runs the node inside the same execution and run, and a Retry from the executions
 * list runs it again in the same lineage and run index: every chunk gets the key it had before and the
 * service answers from its idempotency store instead of sending twice. A new trigger is a new lineage
 * and sends again. A chunk whose content changed gets a new key (never `idempotency_key_reused`).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { n8nChunkKeys } from '../../../src/index.ts';
import type { RequestOptions } from '../../../src/index.ts';
import { executionLineage } from './lineage.ts';

export type KeyOption = RequestOptions['idempotencyKey'];

function runIndexOf(ctx: IExecuteFunctions): number {
	const proxy = ctx.getWorkflowDataProxy(0) as { $runIndex?: unknown };
	return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
}

/**
 * The key deriver of one node run: lineage, node id and run index are read once (on the first
 * derived key), not per item.
 * - `userKey`: the "Idempotency Key" field; when set, it is the base key (chunks get `:chunk-N`).
 * - `payloadContext`: what belongs to every chunk's payload besides its items (e.g. the message of a
 *   multi-recipient send).
 */
export function idempotencyKeys(ctx: IExecuteFunctions): (operation: string, userKey: string, itemIndex?: number, payloadContext?: unknown) => KeyOption {
	let base: { lineageId: string; nodeId: string; runIndex: number } | null | undefined;
	return (operation, userKey, itemIndex, payloadContext) => {
		const given = userKey.trim();
		if (given) return given;
		if (base === undefined) {
			const lineage = executionLineage(ctx);
			// Without an execution id there is nothing stable to derive from: a random key per write.
			base = lineage ? { lineageId: lineage, nodeId: ctx.getNode().id ?? ctx.getNode().name, runIndex: runIndexOf(ctx) } : null;
		}
		return base ? n8nChunkKeys({ ...base, operation, itemIndex, context: payloadContext }) : undefined;
	};
}
