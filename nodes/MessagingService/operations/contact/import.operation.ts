/**
 * Contact → Import: every input item becomes one contact; the contacts go out as background jobs of ≤1000
 * (`POST /contacts/bulk`). With "Wait for Completion" the node polls the jobs (within the timeout) and
 * returns one summary item with totals and per-row errors mapped back to the input item's index;
 * without it, one item per queued job.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, IPairedItemData } from 'n8n-workflow';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, describeImportResults, importResults, jobResult, rowErrorAsApiError, stillRunning, waitEndedError } from '../../../../src/index.ts';
import type { ContactInput, ImportOutcome, ImportWaitOutcome, MessagingClient } from '../../../../src/index.ts';
import { asApiError, errorItem, nodeError, NodeSideError } from '../../helpers/errors.ts';
import { idempotencyKeys } from '../../helpers/idempotency.ts';
import { cancelSignal } from '../../helpers/items.ts';
import { contactOf, mappingParameters } from './import-mapping.ts';
import { failedRowsOption, reportFailedRows } from './import-rows.ts';
import type { RefusedRow } from './import-rows.ts';
import { idempotencyKeyField, optionsCollection, userIdempotencyKey } from '../../helpers/options.ts';
import { NODE_WORDS } from '../../helpers/surface-words.ts';

const show = { show: { resource: ['contact'], operation: ['import'] } };

/** The Timeout field's own name, for the words of a job still running. */

export const description: INodeProperties[] = [
	...mappingParameters(show.show),
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		displayOptions: show,
		description: 'Whether to poll the import jobs until they finish and return totals and per-row errors; otherwise the queued jobs are returned at once',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_WAIT_TIMEOUT_SECONDS,
		displayOptions: { show: { resource: ['contact'], operation: ['import'], waitForCompletion: [true] } },
		description: 'How long to wait for all jobs in all. Jobs still running then keep running on the service.',
	},
	optionsCollection('contact', 'import', [idempotencyKeyField, failedRowsOption]),
];

function pairedRange(itemOf: number[], offset: number, count: number): IPairedItemData[] {
	return itemOf.slice(offset, offset + count).map((item) => ({ item }));
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const contacts: ContactInput[] = [];
	const itemOf: number[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			contacts.push(contactOf(this, items, itemIndex));
			itemOf.push(itemIndex);
		} catch (error) {
			if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemIndex);
			output.push(errorItem(asApiError(error), itemIndex));
		}
	}
	if (contacts.length === 0) return output;

	const wait = this.getNodeParameter('waitForCompletion', 0, true) as boolean;
	const request = {
		idempotencyKey: idempotencyKeys(this)('contact.import', userIdempotencyKey(this, 0)),
		signal: cancelSignal(this),
	};
	let outcome: ImportOutcome | ImportWaitOutcome;
	try {
		if (wait) {
			const seconds = this.getNodeParameter('waitTimeoutSeconds', 0, DEFAULT_WAIT_TIMEOUT_SECONDS) as number;
			outcome = await client.contacts.importAndWait(contacts, { ...request, timeoutMs: Math.max(0, seconds) * 1000 });
		} else {
			outcome = await client.contacts.import(contacts, request);
		}
	} catch (error) {
		// Only a refusal before anything is sent throws (e.g. an invalid Idempotency Key option); a failed
		// call or poll comes back in the outcome.
		if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemOf[0]!);
		return [...output, ...itemOf.map((itemIndex) => errorItem(asApiError(error), itemIndex, { outcome: 'failed' }))];
	}

	// Chunks whose call failed, never went out, or may have gone out (unknown: its key settles it).
	const queued = outcome.chunks.filter((c) => c.status === 'queued');
	for (const chunk of outcome.chunks) {
		if (chunk.status === 'queued') continue;
		const idempotencyKey = chunk.call?.idempotencyKey;
		if (!this.continueOnFail()) {
			const summary = `${queued.length} of ${outcome.chunks.length} import jobs queued (${queued.reduce((n, c) => n + c.count, 0)} of ${contacts.length} contacts)`;
			throw nodeError(this.getNode(), outcome.error ?? chunk.error, itemOf[chunk.offset]!, summary, idempotencyKey);
		}
		for (let k = 0; k < chunk.count; k++) {
			output.push(errorItem(chunk.error, itemOf[chunk.offset + k]!, { outcome: chunk.status, chunk: chunk.chunk, idempotencyKey }));
		}
	}

	if (queued.length === 0) return output;

	if (!('waits' in outcome)) {
		for (const chunk of queued) {
			const json: IDataObject = { ...(chunk.job as IDataObject), chunk: chunk.chunk, offset: chunk.offset, count: chunk.count, replayed: chunk.call.replayed };
			output.push({ json, pairedItem: pairedRange(itemOf, chunk.offset, chunk.count) });
		}
		return output;
	}

	// Per-contact meaning from src (the action reads the same): rows a job refused, and errors naming no row.
	const results = importResults(outcome);
	const refused: RefusedRow[] = [
		...results.contacts.filter((c) => c.status === 'failed' && c.jobId !== undefined).map((c) => ({ itemIndex: itemOf[c.index], jobId: c.jobId!, chunk: c.chunk, error: c.error! })),
		...results.unplacedRowErrors.map((r) => {
			const job = outcome.chunks.find((c) => c.status === 'queued' && c.job.id === r.jobId);
			return { jobId: r.jobId, chunk: r.chunk, error: rowErrorAsApiError(r), jobItems: job ? itemOf.slice(job.offset, job.offset + job.count) : itemOf };
		}),
	];
	const rowErrors = refused.map(({ itemIndex, jobId, chunk, error }) => ({ itemIndex, jobId, chunk, code: error.code, message: error.message, param: error.param, type: error.type }));
	const jobs = outcome.waits.map((w) => ({
		id: w.result.job?.id,
		chunk: w.chunk,
		offset: w.offset,
		status: w.result.status,
		total: w.result.job?.total,
		processed: w.result.job?.processed,
		imported: w.result.job ? jobResult(w.result.job, true).imported : undefined,
		failed: w.result.job?.failed,
		completed_at: w.result.job?.completed_at ?? null,
	}));
	const completed = outcome.totals.unfinishedJobs === 0;
	if (!completed && !this.continueOnFail()) {
		const pollFailure = outcome.waits.find((w) => w.result.status === 'poll_failed');
		if (pollFailure) throw nodeError(this.getNode(), waitEndedError(pollFailure.jobId, pollFailure.result, undefined, NODE_WORDS), itemOf[pollFailure.offset]!);
		const seconds = this.getNodeParameter('waitTimeoutSeconds', 0, DEFAULT_WAIT_TIMEOUT_SECONDS) as number;
		const running = stillRunning(results.unfinishedJobIds, NODE_WORDS, true);
		const error = new NodeSideError('wait_timeout', `${outcome.totals.unfinishedJobs} of ${outcome.totals.jobs} import jobs did not finish within ${seconds} s.`, `${running[0]!.toUpperCase()}${running.slice(1)}.`);
		throw nodeError(this.getNode(), error, itemOf[0]!);
	}
	const summary: IDataObject = { completed, outcome: describeImportResults(results, NODE_WORDS), totals: outcome.totals, jobs, rowErrors };
	output.push({ json: summary, pairedItem: itemOf.map((item) => ({ item })) });

	return [...output, ...reportFailedRows(this, refused, contacts.length)];
}
