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

/**
 * n8n's crash recovery (execution-recovery.service, at restart) replaces a crashed execution's run data
 * with one item `{ isArtificialRecoveredEventItem: true }` per node that ran; its Retry then runs the
 * roots again, so their real output is a later run. Such a run is not the trigger's data.
 */
const isRecoveredPlaceholder = (items: INodeExecutionData[]): boolean =>
	items.length > 0 && items.every((item) => (item.json as { isArtificialRecoveredEventItem?: unknown } | undefined)?.isArtificialRecoveredEventItem === true);

/** A root normally runs once; after a crash's recovery, twice (the placeholder, then the replay). */
const ROOT_RUNS_READ = 3;

/** A root's first real run's output, json only (binary data is referenced by id, which changes per run). */
function rootOutput(proxy: DataProxy, name: string): unknown[] | undefined {
	for (let run = 0; run < ROOT_RUNS_READ; run++) {
		let items: INodeExecutionData[] | undefined;
		try {
			items = proxy.$items?.(name, 0, run);
		} catch {
			return undefined; // this root did not run in this execution (another trigger started it)
		}
		if (!Array.isArray(items)) return undefined;
		if (!isRecoveredPlaceholder(items)) return items.map((item) => item.json);
	}
	return undefined;
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
