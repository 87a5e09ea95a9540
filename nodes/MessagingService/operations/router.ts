/**
 * Routes the node's execution to `<resource>/<operation>.operation.ts`. The client is built once per
 * execution; the operation sees every input item (batching across items needs that).
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describeClientEvent } from '../../../src/index.ts';
import type { MessagingClient } from '../../../src/index.ts';
import { maxWaitMs } from '../helpers/options.ts';
import { createClient } from '../transport/index.ts';
import * as account from './account/index.ts';
import * as contact from './contact/index.ts';
import * as contactAttribute from './contactAttribute/index.ts';
import * as job from './job/index.ts';
import * as message from './message/index.ts';

type Execute = (this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, { execute: Execute }>> = {
	account: { get: account.get },
	contact: { getAll: contact.getAll, import: contact.import },
	contactAttribute: { getAll: contactAttribute.getAll },
	job: { get: job.get, wait: job.wait },
	message: { get: message.get, send: message.send, sendBatch: message.sendBatch },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const selected = operations[resource]?.[operation];
	if (!selected) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported.`);
	}
	const client = await createClient(this, {
		maxWaitMs: maxWaitMs(this),
		onEvent: (event) => {
			this.logger.info(`Messaging Service: ${describeClientEvent(event)}`);
		},
	});
	return [await selected.execute.call(this, items, client)];
}
