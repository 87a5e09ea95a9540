/** Job → Wait: polls a job until it has finished (`completed_at` set), within a timeout. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, waitEndedError } from '../../../../src/index.ts';
import type { MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem, requiredString } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';
import { NODE_WORDS } from '../../helpers/surface-words.ts';
import { jobIdField, jobJson } from './get.operation.ts';

export const description: INodeProperties[] = [
	jobIdField('wait'),
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_WAIT_TIMEOUT_SECONDS,
		displayOptions: { show: { resource: ['job'], operation: ['wait'] } },
		description: 'How long to wait for the job to finish. A job still running then keeps running on the service.',
	},
	optionsCollection('job', 'wait'),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => {
		const id = requiredString(this, 'jobId', itemIndex);
		const seconds = this.getNodeParameter('timeoutSeconds', itemIndex, DEFAULT_WAIT_TIMEOUT_SECONDS) as number;
		const result = await client.jobs.wait(id, { timeoutMs: Math.max(0, seconds) * 1000, signal });
		const ended = waitEndedError(id, result, Math.max(0, seconds) * 1000, NODE_WORDS);
		if (ended) throw ended;
		return jobJson(result.job!, true);
	});
}
