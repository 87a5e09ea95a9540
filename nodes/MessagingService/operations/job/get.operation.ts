/** Job → Get: a background job with its counters and per-row errors (`GET /jobs/{id}`). */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { describeJobResults, jobResult } from '../../../../src/index.ts';
import type { Job, MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem, requiredString } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';
import { NODE_WORDS } from '../../helpers/surface-words.ts';

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

/**
 * The job as the service gave it, with what src makes of it (the action's import-status reads the same):
 * `imported` (processed − failed) and `outcome`, one line in the node's words.
 */
export function jobJson(job: Job, waited: boolean): IDataObject {
	const result = jobResult(job, waited);
	return { ...(job as IDataObject), imported: result.imported, outcome: describeJobResults([result], NODE_WORDS) };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async (itemIndex) => jobJson(await client.jobs.get(requiredString(this, 'jobId', itemIndex), { signal }), false));
}
