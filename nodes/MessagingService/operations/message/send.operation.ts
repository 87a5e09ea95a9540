/**
 * Message → Send: one message to many recipients per input item (`POST /messages`, ≤100 recipients per
 * call; the client chunks longer lists). One output item per recipient, paired with its input item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { describeOutcome, replayedCount } from '../../../../src/index.ts';
import type { MessagingClient } from '../../../../src/index.ts';
import { nodeError, NodeSideError } from '../../helpers/errors.ts';
import { idempotencyKeys } from '../../helpers/idempotency.ts';
import { chunkLogger, thrownErrorItem, unknownHint, unsentResultItem, type UnsentResult } from '../../helpers/results.ts';
import { cancelSignal, requiredString } from '../../helpers/items.ts';
import { idempotencyKeyField, optionsCollection, userIdempotencyKey } from '../../helpers/options.ts';
import { messageFields, recipientList } from './fields.ts';

export const description: INodeProperties[] = [
	...messageFields('send', 'Recipients, separated by commas (or an array from an expression): e-mail addresses for email, phone numbers in international format for WhatsApp'),
	optionsCollection('message', 'send', [idempotencyKeyField]),
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	const signal = cancelSignal(this);
	const keyFor = idempotencyKeys(this);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const channel = requiredString(this, 'channel', itemIndex);
			const to = recipientList(this.getNodeParameter('to', itemIndex, '') as unknown);
			const subject = requiredString(this, 'subject', itemIndex);
			const body = this.getNodeParameter('body', itemIndex, '') as string;
			if (to.length === 0) throw new NodeSideError('invalid_input', 'No recipient given.', 'Fill in "To" with at least one recipient.', 'to');
			const content: { channel: string; subject?: string; body: string } = subject ? { channel, subject, body } : { channel, body };
			const outcome = await client.messages.send({ ...content, to }, {
				idempotencyKey: keyFor('message.send', userIdempotencyKey(this, itemIndex), itemIndex, content),
				signal,
				onChunk: chunkLogger(this, 'recipients'),
			});
			const failures: INodeExecutionData[] = [];
			let firstFailure: UnsentResult | undefined;
			for (const result of outcome.results) {
				const recipient = to[result.index];
				if (result.status === 'sent') {
					const json: IDataObject = { id: result.id, channel, to: recipient, replayed: result.call.replayed };
					output.push({ json, pairedItem: { item: itemIndex } });
				} else if (result.status === 'failed' && result.wholeCall && result.error.code === 'idempotency_key_reused') {
					// The key was sent before with another body: already sent earlier, not a failure to send.
					output.push({ json: { sentEarlier: true, channel, to: recipient }, pairedItem: { item: itemIndex } });
				} else {
					firstFailure ??= result;
					failures.push(unsentResultItem(result, itemIndex, { to: recipient, recipientIndex: result.index }, `recipient ${recipient}`));
				}
			}
			if (failures.length > 0) {
				if (!this.continueOnFail()) {
					const summary = `${to.length} recipients: ${describeOutcome({ ...outcome, replayed: replayedCount(outcome.results) })}${unknownHint(this, outcome.unknown)}`;
					throw nodeError(this.getNode(), outcome.error ?? firstFailure!.error, itemIndex, summary, firstFailure!.call.idempotencyKey);
				}
				output.push(...failures);
			}
		} catch (error) {
			if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemIndex);
			output.push(thrownErrorItem(error, itemIndex));
		}
	}
	return output;
}
