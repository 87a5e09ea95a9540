/**
 * Steps the real-n8n retry tests share (retry.e2e, queue-mode.e2e): a workflow that sends items through
 * Send Batch, and a run of it that fails after its first chunk of 500 went out.
 */
import type { Sandbox } from '../../../sandbox/server.ts';
import { manualWorkflow, MESSAGING_PACKAGE, type N8nRest, type N8nWorkflow } from './n8n-harness.ts';

/**
 * Start → "Recipients" (Code: `count` items `{ email: <emailPrefix><n>@example.com, n }`) → "Send Batch"
 * (Messaging Service, each item one message, with the imported credential), ready for rest.createWorkflow.
 */
export function sendBatchWorkflow(opts: { id: string; name: string; count: number; emailPrefix: string; credential: { id: string; name: string } }): Omit<N8nWorkflow, 'id'> {
  const { id: _id, ...body } = manualWorkflow({
    id: opts.id,
    name: opts.name,
    nodes: [
      {
        name: 'Recipients',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        parameters: { jsCode: `return Array.from({ length: ${opts.count} }, (_, n) => ({ json: { email: '${opts.emailPrefix}' + n + '@example.com', n } }));` },
      },
      {
        name: 'Send Batch',
        type: `${MESSAGING_PACKAGE}.messagingService`,
        parameters: { resource: 'message', operation: 'sendBatch', channel: 'email', to: '={{ $json.email }}', subject: 'Hello', body: '=Message {{ $json.n }}', options: {} },
        credentials: { messagingServiceApi: opts.credential },
      },
    ],
  });
  void _id;
  return body;
}

/**
 * Runs a 1,000-item Send Batch workflow with the second chunk refused on every attempt (500 before
 * commit); checks it failed after 500 with its own lineage, clears the fault, and resolves to its id.
 */
export async function failAfterFirstChunk(rest: N8nRest, sb: Sandbox, workflowId: string): Promise<string> {
  sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_before_commit', skip: 1, count: 50 });
  const executionId = await rest.runWorkflow(workflowId);
  const failed = await rest.waitForExecution(executionId);
  expect(failed.status).toBe('error');
  expect(failed.data.resultData.metadata).toEqual({ msgsvc_lineage: executionId });
  expect(sb.control.summary().messages).toBe(500);
  sb.control.clearFaults();
  return executionId;
}
