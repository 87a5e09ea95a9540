/**
 * The lineage of one node run: what n8n replays when it recovers a run. n8n's recoveries never keep the
 * execution id — a Retry (either mode), a crashed webhook's Retry, "Debug in editor", "Execute step", a
 * sub-workflow child started again by its parent's Retry are all new executions — but they all start
 * from the same trigger data: the Retry copies it (or the whole run data), "Debug in editor" pins it, a
 * child's Execute Workflow Trigger outputs the parent's items again. So the lineage is a hash of the
 * workflow id and the output of every root (trigger) node upstream of this node, plus the node id and
 * `$runIndex`. Identical trigger data is the same send (a webhook redelivered with the same headers,
 * query and body too; a Manual Trigger's `{}` too); a new Schedule tick carries its own timestamp and
 * is a new send.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { canonicalJson, sha256Hex } from '../../../src/index.ts';

export interface Lineage {
	/** Hash of the workflow id and the roots' output. */
	id: string;
	workflowId: string;
	nodeId: string;
	runIndex: number;
	/** The roots whose output went into `id` (empty: nothing upstream could be read, see `tied`). */
	roots: string[];
	/** False when no root's output could be read: `id` then follows this execution only. */
	tied: boolean;
}

interface DataProxy {
	$runIndex?: unknown;
	$items?: (node: string, output?: number, run?: number) => INodeExecutionData[];
}

/** The nodes upstream of this one that have no parent of their own (triggers, or a workflow's start). */
function rootNames(ctx: IExecuteFunctions): string[] {
	const self = ctx.getNode().name;
	return ctx
		.getParentNodes(self)
		.filter((parent) => ctx.getParentNodes(parent.name, { depth: 1 }).length === 0)
		.map((parent) => parent.name)
		.sort();
}

/** A root's first run's output, json only (binary data is referenced by id, which changes per run). */
function rootOutput(proxy: DataProxy, name: string): unknown[] | undefined {
	try {
		const items = proxy.$items?.(name, 0, 0);
		return Array.isArray(items) ? items.map((item) => item.json) : undefined;
	} catch {
		return undefined; // this root did not run in this execution (another trigger started it)
	}
}

/** Read once per node run (idempotency.ts). */
export function runLineage(ctx: IExecuteFunctions): Lineage {
	const proxy = ctx.getWorkflowDataProxy(0) as DataProxy;
	const runIndex = typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
	const workflowId = String(ctx.getWorkflow().id ?? '');
	const node = ctx.getNode();
	const outputs: Array<[string, unknown[]]> = [];
	for (const name of rootNames(ctx)) {
		const output = rootOutput(proxy, name);
		if (output) outputs.push([name, output]);
	}
	const tied = outputs.length > 0;
	// Nothing upstream to read: the execution id is all there is, and a recovery cannot be recognised.
	const source = tied ? { workflowId, outputs } : { workflowId, execution: ctx.getExecutionId() ?? '' };
	return { id: sha256Hex(canonicalJson(source)), workflowId, nodeId: node.id ?? node.name, runIndex, roots: outputs.map(([name]) => name), tied };
}
