/**
 * The execution lineage: the id of the execution that first ran this workflow run, shared by n8n's
 * "Retry" of it. n8n's Retry (executions list, either mode) starts a NEW execution (new id,
 * `getMode() === 'retry'`) from a copy of the failed execution's run data — and custom data lives in that
 * run data (`resultData.metadata`), so a value written by the original is read back in the retry.
 * A new trigger starts with empty custom data: a new lineage, so it sends again.
 *
 * Custom data is bounded (n8n-core execution-metadata: ≤ 10 keys; an 11th new key is dropped silently
 * outside manual mode), so the write is read back and a failure logged.
 */
import type { IExecuteFunctions, IWorkflowExecutionCustomData } from 'n8n-workflow';

export const LINEAGE_KEY = 'msgsvc_lineage';

function customDataOf(ctx: IExecuteFunctions): IWorkflowExecutionCustomData | undefined {
	try {
		return ctx.customData;
	} catch {
		return undefined; // n8n-core throws when the context has no run data
	}
}

function record(custom: IWorkflowExecutionCustomData | undefined, lineage: string): boolean {
	if (!custom) return false;
	try {
		custom.set(LINEAGE_KEY, lineage);
	} catch {
		return false; // manual mode throws on a refused key; other modes drop it silently
	}
	return custom.get(LINEAGE_KEY) === lineage;
}

/** The lineage id of this execution, or undefined when n8n gives no execution id. Read once per node run (idempotency.ts). */
export function executionLineage(ctx: IExecuteFunctions): string | undefined {
	const executionId = ctx.getExecutionId();
	if (!executionId) return undefined;
	const custom = customDataOf(ctx);
	if (ctx.getMode() === 'retry') {
		const carried = custom?.get(LINEAGE_KEY);
		if (typeof carried === 'string' && carried.length > 0) return carried;
		// The original never recorded one: it never reached this node, it ran a version of the node
		// without lineage, or custom data was full. Messages it did send go out again.
		ctx.logger.warn(
			`Messaging Service: retry ${executionId} carries no "${LINEAGE_KEY}" from the execution it retries; idempotency keys derive from this execution, so anything the original execution sent is sent again. Set the Idempotency Key option from the item (e.g. {{ $json.id }}) to make retries safe regardless.`,
		);
		record(custom, executionId);
		return executionId;
	}
	if (!record(custom, executionId)) {
		ctx.logger.warn(
			`Messaging Service: could not record "${LINEAGE_KEY}" in execution ${executionId}'s custom data (n8n keeps at most 10 keys); a Retry of this execution from the executions list would send again. Retry On Fail is not affected.`,
		);
	}
	return executionId;
}
