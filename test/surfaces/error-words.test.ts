/**
 * One error, worded by src/error-wording.ts on both surfaces: the node's title and description and the
 * action's line are the same pieces, and each remedy names the setting as that surface names it (never
 * the other surface's name, nor the client's internal option).
 */
import { ACTION_WORDS } from '../../action/src/surface-words.ts';
import { errorItem, nodeError } from '../../nodes/MessagingService/helpers/errors.ts';
import { NODE_WORDS } from '../../nodes/MessagingService/helpers/surface-words.ts';
import { ApiError } from '../../src/errors.ts';
import { describeError, errorDescription, errorTitle, refusedText } from '../../src/error-wording.ts';

const node = { id: 'n1', name: 'Messaging Service', type: 'messagingService', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

function error(code: string, message: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}): ApiError {
  return new ApiError({ status: 0, type: 'client_error', code, message, ...extra });
}

const SETTINGS: [string, RegExp, RegExp, RegExp][] = [
  // code, the node's setting, the action's input, the client's option
  ['rate_limit_wait_exceeded', /"Max Rate-Limit Wait \(Seconds\)"/, /max-rate-limit-wait/, /maxWaitMs/],
  ['missing_api_key', /API Key of the Messaging Service API credential/, /api-key input/, /apiKey option/],
  ['invalid_base_url', /Base URL of the Messaging Service API credential/, /base-url input/, /baseUrl option/],
  ['transport_error', /Base URL of the Messaging Service API credential/, /base-url input/, /baseUrl option/],
];

test.each(SETTINGS)('%s: each surface names its own setting, and only its own', (code, nodeWords, actionWords, clientWords) => {
  const e = error(code, 'It went wrong');
  const nodeText = `${errorTitle(e)} ${errorDescription(e, { words: NODE_WORDS })}`;
  const actionText = describeError(e, { words: ACTION_WORDS });
  expect(nodeText).toMatch(nodeWords);
  expect(actionText).toMatch(actionWords);
  expect(e.remedy).toMatch(clientWords);
  for (const other of [actionWords, clientWords]) expect(nodeText).not.toMatch(other);
  for (const other of [nodeWords, clientWords]) expect(actionText).not.toMatch(other);
  // What the node throws and routes says the same as its description.
  expect(nodeError(node, e, 2).description).toBe(errorDescription(e, { words: NODE_WORDS, where: 'item 2' }));
  expect(errorItem(e, 2).json.message).toBe(errorDescription(e, { words: NODE_WORDS, where: 'item 2' }));
});

test('the action’s one line is the node’s title and description joined: nothing worded twice', () => {
  const e = new ApiError({ status: 402, type: 'payment_error', code: 'insufficient_credits', message: 'Not enough credit', requestId: 'req_1', docUrl: 'https://docs.example/errors#insufficient_credits' });
  expect(describeError(e, { words: NODE_WORDS, where: 'item 0' })).toBe(`${errorTitle(e)}. ${errorDescription(e, { words: NODE_WORDS, where: 'item 0' })}`);
  const long = error('validation_failed', `${'A very long message from the service about the field '.repeat(3)}to`, { param: 'to' });
  expect(errorTitle(long).length).toBeLessThanOrEqual(80);
  expect(errorTitle(long).endsWith('…')).toBe(true);
  // Cut in the title, whole in the description; whole once in the one line.
  expect(errorDescription(long)).toContain(long.message);
  expect(describeError(long).split(long.message.replace(/[.\s]+$/, '')).length).toBe(2);
});

test('a refused row’s annotation: its lead, where the service placed it, and the one line', () => {
  const e = error('validation_failed', 'email is not an address', { param: 'email' });
  expect(refusedText('contact', e, { words: ACTION_WORDS, which: 'job job_1, element 2' })).toBe(`Contact not imported (job job_1, element 2): ${describeError(e, { words: ACTION_WORDS })}`);
  expect(refusedText('recipient', e)).toMatch(/^Recipient refused: validation_failed: email is not an address\. Fix the field `email`\.$/);
});
