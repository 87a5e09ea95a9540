/**
 * Message → Send Batch: every input item becomes one message element; the elements go out in calls of
 * ≤500 (`POST /messages/batch`) through the client. One output item per input item: the message id, or
 * (with "Continue (using error output)") the element's result on the error output — failed (nothing
 * sent: fix and send) or unknown (may have gone out: send again with its key). pairedItem is the input
 * item's index in both cases.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { describeOutcome, replayedCount } from '../../../../src/index.ts';
import type { MessageElement, MessagingClient } from '../../../../src/index.ts';
import { nodeError } from '../../helpers/errors.ts';
import { idempotencyKeys } from '../../helpers/idempotency.ts';
import { chunkLogger, thrownErrorItem, unknownHint, unsentResultItem, type UnsentResult } from '../../helpers/results.ts';
import { cancelSignal, requiredString } from '../../helpers/items.ts';
import { idempotencyKeyField, optionsCollection, userIdempotencyKey } from '../../helpers/options.ts';
import { messageFields } from './fields.ts';

export const description: INodeProperties[] = [
	{
		displayName:
			'All input items are sent together in calls of up to 500 messages. Map each field to the item with an expression, e.g. {{ $json.email }}.',
		name: 'batchNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['message'], operation: ['sendBatch'] } },
	},
	...messageFields('sendBatch', 'Recipient of this item’s message: an e-mail address for email, a phone number in international format for WhatsApp'),
	optionsCollection('message', 'sendBatch', [idempotencyKeyField]),
];

function elementOf(ctx: IExecuteFunctions, itemIndex: number): MessageElement {
	const element: MessageElement = {
		channel: requiredString(ctx, 'channel', itemIndex),
		to: requiredString(ctx, 'to', itemIndex),
		body: ctx.getNodeParameter('body', itemIndex, '') as string,
	};
	const subject = requiredString(ctx, 'subject', itemIndex);
	if (subject) element.subject = subject;
	return element;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const perItem: INodeExecutionData[][] = items.map(() => []);
	const elements: MessageElement[] = [];
	const itemOf: number[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			elements.push(elementOf(this, itemIndex));
			itemOf.push(itemIndex);
		} catch (error) {
			// Nothing has been sent yet: without continue-on-fail the node stops here.
			if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemIndex);
			perItem[itemIndex]!.push(thrownErrorItem(error, itemIndex));
		}
	}

	if (elements.length > 0) {
		const outcome = await client.messages.sendBatch(elements, {
			idempotencyKey: idempotencyKeys(this)('message.sendBatch', userIdempotencyKey(this, 0)),
			signal: cancelSignal(this),
			onChunk: chunkLogger(this, 'messages'),
		});
		let firstFailure: UnsentResult | undefined;
		for (const result of outcome.results) {
			const itemIndex = itemOf[result.index]!;
			const element = elements[result.index]!;
			if (result.status === 'sent') {
				const json: IDataObject = { id: result.id, channel: element.channel, to: element.to, replayed: result.call.replayed };
				perItem[itemIndex]!.push({ json, pairedItem: { item: itemIndex } });
				continue;
			}
			firstFailure ??= result;
			perItem[itemIndex]!.push(unsentResultItem(result, itemIndex));
		}
		if (firstFailure && !this.continueOnFail()) {
			const summary = `${elements.length} messages: ${describeOutcome({ ...outcome, replayed: replayedCount(outcome.results) })}${unknownHint(outcome.unknown)}`;
			throw nodeError(this.getNode(), outcome.error ?? firstFailure.error, itemOf[firstFailure.index]!, summary, firstFailure.call.idempotencyKey);
		}
	}
	return perItem.flat();
}
