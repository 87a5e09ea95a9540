/**
 * The workflows of `npm run bench:n8n-scale`: Manual Trigger → "Items" (Code: N items `{ to, body }`)
 * → "Measured", the node whose cost is compared. Items carry only the two fields every variant reads.
 */
import { manualWorkflow, MESSAGING_PACKAGE, type ChainNode, type N8nWorkflow } from '../test/e2e/n8n/n8n-harness.ts';
import type { Variant } from './n8n-scale-figures.ts';

export const MEASURED = 'Measured';
export const CREDENTIAL = { id: 'scaleBenchKey', name: 'Messaging Service (scale bench)' };

const SET = 'n8n-nodes-base.set';
const SET_VERSION = 3.4;

function assignment(name: string, value: string) {
  return { id: name, name, value, type: 'string' };
}

function sendBatch(parameters: Record<string, unknown>): Omit<ChainNode, 'name'> & { type: string } {
  return {
    type: `${MESSAGING_PACKAGE}.messagingService`,
    parameters: { resource: 'message', operation: 'sendBatch', channel: 'email', ...parameters, options: {} },
    credentials: { messagingServiceApi: CREDENTIAL },
  };
}

/** The measured node of each variant. */
const measured: Record<Variant, Omit<ChainNode, 'name'> & { type: string }> = {
  noOp: { type: 'n8n-nodes-base.noOp', parameters: {} },
  // Keeps `to` and `body` and adds one field: n8n's cheapest per-item write.
  setConstant: { type: SET, typeVersion: SET_VERSION, parameters: { mode: 'manual', assignments: { assignments: [assignment('campaign', 'spring')] }, includeOtherFields: true, options: {} } },
  // The two expressions a Send Batch in expression mode evaluates, and nothing else.
  setExpressions: {
    type: SET,
    typeVersion: SET_VERSION,
    parameters: { mode: 'manual', assignments: { assignments: [assignment('to', '={{ $json.to }}'), assignment('body', '={{ $json.body }}')] }, includeOtherFields: false, options: {} },
  },
  sendBatchExpressions: sendBatch({ to: '={{ $json.to }}', body: '={{ $json.body }}' }),
  // Reads `to` and `body` from each item's fields by name: no expression per item.
  sendBatchByField: sendBatch({ fieldMapping: 'autoMapInputData' }),
};

/** The Code node's source: N items `{ to: user<n>@example.com, body: "Message <n>" }` (see recipientOf, bodyOf). */
export function itemsCode(items: number): string {
  return `return Array.from({ length: ${items} }, (_, n) => ({ json: { to: 'user' + n + '@example.com', body: 'Message ' + n } }));`;
}

/**
 * One run's workflow, for the REST API's create. Each run gets its own workflow: Send Batch derives its
 * keys and its record of sent rows from the workflow and its trigger data, so a second run of the same
 * Manual Trigger workflow would rightly send nothing.
 */
export function scaleWorkflow(variant: Variant, items: number, name: string): Omit<N8nWorkflow, 'id'> {
  const { id: _id, ...wf } = manualWorkflow({
    id: 'scale',
    name,
    nodes: [
      { name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: itemsCode(items) } },
      { name: MEASURED, ...measured[variant] },
    ],
  });
  void _id;
  return wf;
}
