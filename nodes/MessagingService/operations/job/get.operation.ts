/** Job → Get: a background job with its counters and per-row errors (`GET /jobs/{id}`). */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem, requiredString } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';

export function jobIdField(operation: string): INodeProperties {
	return {
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'job_…',
		displayOptions: { show: { resource: ['job'], operation: [operation] } },
		description: 'ID of the job (starts with job_), e.g. from Contact → Import',
	};
}

export const description: INodeProperties[] = [jobIdField('get'), optionsCollection('job', 'get')];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => (await client.jobs.get(requiredString(this, 'jobId', itemIndex), { signal })) as IDataObject);
}
