/** Account → Get: the account behind the key, including its per-minute `rate_limit`. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { MessagingClient } from '../../../../src/index.ts';
import { cancelSignal, forEachItem } from '../../helpers/items.ts';
import { optionsCollection } from '../../helpers/options.ts';

export const description: INodeProperties[] = [optionsCollection('account', 'get')];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const signal = cancelSignal(this);
	return await forEachItem(this, items, async () => (await client.account.get({ signal })) as IDataObject);
}
