/**
 * Steps the real-n8n retry tests share (retry.e2e, queue-mode.e2e): a workflow that sends items through
 * Send Batch, and a run of it that fails after its first chunk of 500 went out.
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../../sandbox/server.ts';
import { manualWorkflow, MESSAGING_PACKAGE, type ChainNode, type N8nRest, type N8nWorkflow } from './n8n-harness.ts';
import { ledgerRows } from '../../support/ledger-rows.ts';

export interface SendBatchWorkflowOptions {
  id: string;
  name: string;
  count: number;
  emailPrefix: string;
  credential: { id: string; name: string };
  /** The first `n` (default 0): items are n = first … first+count-1. */
  first?: number;
  /** The trigger node (default: "Start", a Manual Trigger). */
  trigger?: ChainNode;
  /** The message body (default `=Message {{ $json.n }}`). */
  body?: string;
  /** Send Batch's Options collection (e.g. `{ idempotencyKey: '={{ $json.orderId }}' }`). */
  options?: Record<string, unknown>;
}

/**
 * Trigger → "Recipients" (Code: `count` items `{ email: <emailPrefix><n>@example.com, n, orderId:
 * <emailPrefix><n> }`) → "Send Batch" (Messaging Service, each item one message, with the imported
 * credential), ready for rest.createWorkflow.
 */
export function sendBatchWorkflow(opts: SendBatchWorkflowOptions): Omit<N8nWorkflow, 'id'> {
  const first = opts.first ?? 0;
  const { id: _id, ...body } = manualWorkflow({
    id: opts.id,
    name: opts.name,
    trigger: opts.trigger,
    nodes: [
      {
        name: 'Recipients',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        parameters: {
          jsCode: `return Array.from({ length: ${opts.count} }, (_, i) => { const n = ${first} + i; return { json: { email: '${opts.emailPrefix}' + n + '@example.com', n, orderId: '${opts.emailPrefix}' + n } }; });`,
        },
      },
      {
        name: 'Send Batch',
        type: `${MESSAGING_PACKAGE}.messagingService`,
        parameters: { resource: 'message', operation: 'sendBatch', channel: 'email', to: '={{ $json.email }}', subject: 'Hello', body: opts.body ?? '=Message {{ $json.n }}', options: opts.options ?? {} },
        credentials: { messagingServiceApi: opts.credential },
      },
    ],
  });
  void _id;
  return body;
}

/** A production Webhook trigger (POST /webhook/<path>, answers at once; the run goes on after). */
export function webhookTrigger(path: string): ChainNode {
  return { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} } };
}

/** A Schedule Trigger (hourly); run by hand, each run's output carries that run's timestamp. */
export const scheduleTrigger: ChainNode = { name: 'Schedule Trigger', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1.2, parameters: { rule: { interval: [{ field: 'hours', hoursInterval: 1 }] } } };

/**
 * Runs a 1,000-item Send Batch workflow with the second chunk refused on every attempt (500 before
 * commit); checks it failed after 500, clears the fault, and resolves to its id.
 */
export async function failAfterFirstChunk(rest: N8nRest, sb: Sandbox, workflowId: string, trigger = 'Start'): Promise<string> {
  sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_before_commit', skip: 1, count: 50 });
  const executionId = await rest.runWorkflow(workflowId, trigger);
  const failed = await rest.waitForExecution(executionId);
  expect(failed.status).toBe('error');
  expect(sb.control.summary().messages).toBe(500);
  sb.control.clearFaults();
  return executionId;
}

/** A Send Batch output row that did not go out in this run: skipped as sent earlier, or answered by the service's idempotency store. */
export function notSentAgain(json: Record<string, unknown>): boolean {
  return json.sentEarlier === true || json.replayed === true;
}

/** Recipients the ledger shows with more than one message (what "sent twice" means to the people receiving it). */
export function recipientsWithTwoTexts(sb: Sandbox): string[] {
  const counts = new Map<string, number>();
  for (const m of ledgerRows(sb).messages) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([to]) => to);
}
