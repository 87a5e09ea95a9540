/**
 * Message → Send: one message to many recipients per input item (`POST /messages`, ≤100 recipients per
 * call; the client chunks longer lists). One output item per recipient, paired with its input item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { describeOutcome, replayedCount, subjectNotSentNotice, takesSubject } from '../../../../src/index.ts';
import type { MessagingClient } from '../../../../src/index.ts';
import { nodeError, NodeSideError } from '../../helpers/errors.ts';
import { addHint, itemRanges, unknownChunks, untiedHint } from '../../helpers/hints.ts';
import { recipientKeys } from '../../helpers/idempotency.ts';
import { runLineage } from '../../helpers/lineage.ts';
import { sendOnce } from '../../helpers/send-once.ts';
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
	const lineage = runLineage(this);
	const earlier: number[] = [];
	let recipientsEarlier = 0;
	let untied: string | undefined;
	const subjectLeftOut: string[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const channel = requiredString(this, 'channel', itemIndex);
			const to = recipientList(this.getNodeParameter('to', itemIndex, '') as unknown);
			const subject = requiredString(this, 'subject', itemIndex);
			const body = this.getNodeParameter('body', itemIndex, '') as string;
			if (to.length === 0) throw new NodeSideError('invalid_input', 'No recipient given.', 'Fill in "To" with at least one recipient.', 'to');
			// A Subject on a channel without one is left out, as in the action (src/channel-rules.ts).
			if (subject && !takesSubject(channel)) subjectLeftOut.push(channel);
			const content: { channel: string; subject?: string; body: string } = subject && takesSubject(channel) ? { channel, subject, body } : { channel, body };
			const keys = recipientKeys(lineage, userIdempotencyKey(this, itemIndex), itemIndex, items[itemIndex]!.json, to, content);
			const once = await sendOnce(
				this,
				to.map((_, row) => row),
				keys,
				(rows, options) => client.messages.send({ ...content, to: rows.map((row) => to[row]!) }, { ...options, signal }),
				chunkLogger(this, 'recipients'),
			);
			untied ??= once.untied;
			const byRecipient: INodeExecutionData[][] = to.map(() => []);
			for (const row of [...once.sentEarlier, ...once.reused]) byRecipient[row]!.push({ json: { sentEarlier: true, channel, to: to[row]! }, pairedItem: { item: itemIndex } });
			if (once.sentEarlier.length + once.reused.length > 0) {
				earlier.push(itemIndex);
				recipientsEarlier += once.sentEarlier.length + once.reused.length;
			}
			const failures: INodeExecutionData[] = [];
			let firstFailure: UnsentResult | undefined;
			for (const result of [...once.results].sort((a, b) => a.index - b.index)) {
				const recipient = to[result.index];
				if (result.status === 'sent') {
					const json: IDataObject = { id: result.id, channel, to: recipient, replayed: result.call.replayed };
					byRecipient[result.index]!.push({ json, pairedItem: { item: itemIndex } });
				} else {
					firstFailure ??= result;
					failures.push(unsentResultItem(result, itemIndex, { to: recipient, recipientIndex: result.index }, `recipient ${recipient}`));
				}
			}
			output.push(...byRecipient.flat());
			if (failures.length > 0) {
				if (!this.continueOnFail()) {
					const counts = { sent: 0, failed: 0, unknown: 0, notAttempted: 0 };
					for (const r of once.results) counts[r.status === 'not_attempted' ? 'notAttempted' : r.status] += 1;
					const unknown = unknownChunks(once.results, (index) => index);
					const summary = `${to.length} recipients: ${describeOutcome({ ...counts, replayed: replayedCount(once.results) })}${unknownHint(this, counts.unknown)}${unknown ? `. Keys of the unknown chunks: ${unknown.replace(/\(items /g, '(recipients ')}` : ''}`;
					throw nodeError(this.getNode(), once.error ?? firstFailure!.error, itemIndex, summary, firstFailure!.call.idempotencyKey);
				}
				output.push(...failures);
			}
		} catch (error) {
			if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemIndex);
			output.push(thrownErrorItem(error, itemIndex));
		}
	}
	if (recipientsEarlier > 0) addHint(this, `${recipientsEarlier} recipients were already sent earlier (same trigger data, node and input item, or the same Idempotency Key), not sent again: items ${itemRanges(earlier)}. Their output items have "sentEarlier": true.`);
	if (untied) addHint(this, untiedHint(untied), 'warning');
	if (subjectLeftOut.length > 0) addHint(this, subjectNotSentNotice(subjectLeftOut, subjectLeftOut.length));
	return output;
}
