/** Building workflows for import or for n8n's REST API. */

export interface N8nWorkflow {
  /** ≤ 21 characters (n8n's nanoid-sized ids). */
  id: string;
  name: string;
  nodes: Array<Record<string, unknown>>;
  connections: Record<string, unknown>;
  active?: boolean;
  settings?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ChainNode {
  name: string;
  /** `<packageName>.<node name>` for a community node, e.g. `n8n-nodes-messaging-service.messagingService`. */
  type: string;
  typeVersion?: number;
  parameters?: Record<string, unknown>;
  /** `{ <credential type>: { id, name } }` of an imported credential. */
  credentials?: Record<string, { id: string; name: string }>;
  /** e.g. `onError: 'continueErrorOutput'`, `retryOnFail`, … (copied onto the node). */
  [key: string]: unknown;
}

/**
 * A workflow "Start" (Manual Trigger, or the given `trigger` node) → nodes[0] → nodes[1] → … (main
 * output 0 into input 0), ready for importWorkflow + executeWorkflow, or for the REST API. `id` ≤ 21 chars.
 */
export function manualWorkflow(opts: { id: string; name?: string; nodes: ChainNode[]; trigger?: ChainNode }): N8nWorkflow {
  const trigger = opts.trigger ?? { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
  const all = [trigger, ...opts.nodes];
  const nodes = all.map((node, i) => ({
    id: `${opts.id}-n${i}`.slice(-36),
    position: [i * 220, 0],
    typeVersion: 1,
    parameters: {},
    ...node,
  }));
  const connections: Record<string, unknown> = {};
  for (let i = 0; i + 1 < all.length; i++) {
    connections[all[i]!.name] = { main: [[{ node: all[i + 1]!.name, type: 'main', index: 0 }]] };
  }
  return { id: opts.id, name: opts.name ?? opts.id, nodes, connections, active: false, settings: { executionOrder: 'v1' } };
}
