/**
 * Message → Send (`sendBatch`): every input item becomes one message element; the elements go out in calls of
 * ≤500 (`POST /messages/batch`) through the client. One output item per input item: the message id, or
 * (with "Continue (using error output)") the element's result on the error output — failed (nothing
 * sent: fix and send) or unknown (may have gone out: send again with its key). pairedItem is the input
 * item's index in both cases.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { describeOutcome, MAX_BATCH_MESSAGES, replayedCount, subjectNotSentNotice, takesSubject } from '../../../../src/index.ts';
import type { MessageElement, MessagingClient } from '../../../../src/index.ts';
import { nodeError, NodeSideError } from '../../helpers/errors.ts';
import { addHint, retrySentence, sentEarlierHint, unknownChunks, untiedHint } from '../../helpers/hints.ts';
import { rowKeys } from '../../helpers/idempotency.ts';
import type { RowKeys } from '../../helpers/idempotency.ts';
import { chunkLogger, thrownErrorItem, unknownHint, unsentResultItem, type UnsentResult } from '../../helpers/results.ts';
import { cancelSignal } from '../../helpers/items.ts';
import { itemParameter } from '../../helpers/parameters.ts';
import { sendOnce } from '../../helpers/send-once.ts';
import { idempotencyKeyField, optionsCollection } from '../../helpers/options.ts';
import { batchFieldsReader, DEFINE_BELOW, fieldMappingProperty, fieldNamesProperty, mapsAutomatically } from './batch-mapping.ts';
import type { BatchFields } from './batch-mapping.ts';
import { messageFields } from './fields.ts';

export const description: INodeProperties[] = [
	{
		displayName:
			'All input items are sent together in calls of up to 500 messages. Mapping "Map Automatically" reads each item’s to, body, subject, channel and idempotencyKey fields by name, with no expression per item: the fast way for many items. "Map Each Field Below" takes an expression per field, e.g. {{ $json.email }}.',
		name: 'batchNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['message'], operation: ['sendBatch'] } },
	},
	fieldMappingProperty,
	...messageFields('sendBatch', 'Recipient of this item’s message: an e-mail address for email, a phone number in international format for WhatsApp', {
		contentShow: { fieldMapping: [DEFINE_BELOW] },
		channelDescription: `Channel to send on. Use an expression for a channel not listed here. With Mapping "Map Automatically": the channel of each item that has no channel field (an item's own channel field wins).`,
	}),
	fieldNamesProperty,
	optionsCollection('message', 'sendBatch', [idempotencyKeyField]),
];

/** One item's element; a Subject on a channel without one is left out (src/channel-rules.ts), as in the action. */
function elementOf(fields: BatchFields, subjectLeftOut: string[]): MessageElement {
	const element: MessageElement = { channel: fields.channel, to: fields.to, body: fields.body };
	if (fields.subject && takesSubject(element.channel)) element.subject = fields.subject;
	else if (fields.subject) subjectLeftOut.push(element.channel);
	return element;
}

/** Per-item keys must be there and differ: a missing or repeated key fails its item before anything is sent. */
function keyProblem(keys: RowKeys, row: number, firstRowOf: Map<string, number>): NodeSideError | undefined {
	if (keys.mode !== 'perItem') return undefined;
	const key = keys.keyOf(row);
	if (!key) return new NodeSideError('missing_idempotency_key', `The Idempotency Key of item ${row} is empty while other items have one.`, 'Give every item its own key, or leave the field empty for keys derived from the run.', 'idempotencyKey');
	const first = firstRowOf.get(key);
	if (first !== undefined) return new NodeSideError('duplicate_idempotency_key', `Item ${row} has the same Idempotency Key as item ${first}; it was not sent.`, 'Give every item its own key: one key is one message.', 'idempotencyKey');
	firstRowOf.set(key, row);
	return undefined;
}

/**
 * The key given for each row: each item's key field (Map Automatically) when any item has one, as an
 * expression giving each item its key would; otherwise Options → Idempotency Key (read once unless it
 * is an expression).
 */
function givenKeys(ctx: IExecuteFunctions, rows: readonly number[], itemKeys: ReadonlyArray<string | undefined>): (row: number) => string {
	if (rows.some((row) => itemKeys[row]?.trim())) return (row) => itemKeys[row] ?? '';
	const option = itemParameter<unknown>(ctx, 'options.idempotencyKey', '');
	return (row) => {
		const value = option(row);
		return typeof value === 'string' ? value : String(value ?? '');
	};
}

const outputsOf = (outputs: Array<INodeExecutionData | undefined>): INodeExecutionData[] => outputs.filter((item) => item !== undefined);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[], client: MessagingClient): Promise<INodeExecutionData[]> {
	const outputs = new Array<INodeExecutionData | undefined>(items.length); // one output per input item, at its index
	const elements: Array<MessageElement | undefined> = [];
	const candidates: number[] = [];
	const subjectLeftOut: string[] = [];
	const fieldsOf = batchFieldsReader(this, items, mapsAutomatically(this));
	const itemKeys: Array<string | undefined> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const fields = fieldsOf(itemIndex);
			elements[itemIndex] = elementOf(fields, subjectLeftOut);
			itemKeys[itemIndex] = fields.key;
			candidates.push(itemIndex);
		} catch (error) {
			// Nothing has been sent yet: without continue-on-fail the node stops here.
			if (!this.continueOnFail()) throw nodeError(this.getNode(), error, itemIndex);
			outputs[itemIndex] = thrownErrorItem(error, itemIndex);
		}
	}
	if (subjectLeftOut.length > 0) addHint(this, subjectNotSentNotice(subjectLeftOut, subjectLeftOut.length));
	if (candidates.length === 0) return outputsOf(outputs);

	const keys = rowKeys(this, 'message.sendBatch', candidates, (row) => items[row]!.json, givenKeys(this, candidates, itemKeys), MAX_BATCH_MESSAGES);
	const firstRowOf = new Map<string, number>();
	const rows: number[] = [];
	for (const row of candidates) {
		const problem = keyProblem(keys, row, firstRowOf);
		if (!problem) rows.push(row);
		else if (!this.continueOnFail()) throw nodeError(this.getNode(), problem, row);
		else outputs[row] = thrownErrorItem(problem, row);
	}

	const signal = cancelSignal(this);
	const once = await sendOnce(this, rows, keys, (sent, options) => client.messages.sendBatch(sent.map((row) => elements[row]!), { ...options, signal }), chunkLogger(this, 'messages'));
	const earlier = (row: number): INodeExecutionData => ({ json: { sentEarlier: true, channel: elements[row]!.channel, to: elements[row]!.to }, pairedItem: { item: row } });
	for (const row of once.sentEarlier) outputs[row] = earlier(row);
	for (const row of once.reused) outputs[row] = earlier(row);
	let firstFailure: UnsentResult | undefined;
	for (const result of once.results) {
		const row = result.index;
		if (result.status === 'sent') {
			const json: IDataObject = { id: result.id, channel: elements[row]!.channel, to: elements[row]!.to, replayed: result.call.replayed };
			outputs[row] = { json, pairedItem: { item: row } };
			continue;
		}
		if (!firstFailure || row < firstFailure.index) firstFailure = result;
		outputs[row] = unsentResultItem(result, row);
	}

	if (once.sentEarlier.length > 0) addHint(this, sentEarlierHint(once.sentEarlier.length, candidates.length, once.sentEarlier, keys.mode === 'perItem' ? 'same Idempotency Key' : 'same trigger data, node and input item'));
	if (once.reused.length > 0) addHint(this, sentEarlierHint(once.reused.length, candidates.length, once.reused, 'with other content under the same Idempotency Key'));
	const untied = once.untied ?? (keys.mode !== 'call' && !keys.lineage.tied ? 'no trigger data upstream of this node could be read' : undefined);
	if (untied) addHint(this, untiedHint(untied), 'warning');
	const unknown = unknownChunks(once.results, (index) => index);
	if (unknown) addHint(this, `Outcome unknown for some items; ${retrySentence(this)}. Keys: ${unknown}`, 'warning');

	if (firstFailure && !this.continueOnFail()) {
		const counts = { sent: 0, failed: 0, unknown: 0, notAttempted: 0 };
		for (const r of once.results) counts[r.status === 'not_attempted' ? 'notAttempted' : r.status] += 1;
		const earlierText = once.sentEarlier.length + once.reused.length > 0 ? `, ${once.sentEarlier.length + once.reused.length} already sent earlier` : '';
		const keysText = unknown ? `. Keys of the unknown chunks: ${unknown}` : '';
		const summary = `${candidates.length} messages: ${describeOutcome({ ...counts, replayed: replayedCount(once.results) })}${earlierText}${unknownHint(this, counts.unknown)}${keysText}`;
		throw nodeError(this.getNode(), once.error ?? firstFailure.error, firstFailure.index, summary, firstFailure.call.idempotencyKey);
	}
	return outputsOf(outputs);
}
