/** Job → Wait: polls a job until it has finished (`completed_at` set), within a timeout. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { MessagingClient } from '../../../../src/index.ts';
import { NodeSideError } from '../../helpers/errors.ts';
import { cancelSignal, forEachItem, requiredString } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';
import { jobIdField } from './get.operation.ts';

export const DEFAULT_JOB_TIMEOUT_SECONDS = 300;

export const description: INodeProperties[] = [
	jobIdField('wait'),
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_JOB_TIMEOUT_SECONDS,
		displayOptions: { show: { resource: ['job'], operation: ['wait'] } },
		description: 'How long to wait for the job to finish. A job still running then keeps running on the service.',
	},
	optionsCollection('job', 'wait'),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => {
		const id = requiredString(this, 'jobId', itemIndex);
		const seconds = this.getNodeParameter('timeoutSeconds', itemIndex, DEFAULT_JOB_TIMEOUT_SECONDS) as number;
		const result = await client.jobs.wait(id, { timeoutMs: Math.max(0, seconds) * 1000, signal });
		if (result.status === 'completed') return result.job as IDataObject;
		const progress = result.job ? ` (${result.job.processed} of ${result.job.total} rows processed)` : '';
		if (result.status === 'aborted') throw new NodeSideError('aborted', `Waiting for job ${id} was cancelled${progress}.`, 'The job keeps running on the service.');
		throw new NodeSideError('wait_timeout', `Job ${id} did not finish within ${seconds} s${progress}; it keeps running on the service.`, 'Raise the timeout, or wait for the job again later.');
	});
}
