import { deriveIdempotencyKey } from './idempotency.ts';
import type { ChunkKeyInput } from './types.ts';

/** A key per chunk, for `RequestOptions.idempotencyKey`. */
export type ChunkKeyFunction = (chunk: ChunkKeyInput) => string;

/** What identifies one logical write of the n8n node. */
export interface N8nKeyParts {
  /**
   * What n8n replays when it recovers a run: a hash of the workflow id and the trigger data the run
   * started from (nodes/…/helpers/lineage.ts). Never the execution id: every recovery is a new one.
   */
  lineageId: string;
  nodeId: string;
  /** `$runIndex`: the node's run within the execution (loops run a node more than once). */
  runIndex: number;
  /** e.g. `message.sendBatch`. */
  operation: string;
  /** For per-item writes (one call per input item); absent when all items go out together. */
  itemIndex?: number;
  /** What belongs to every chunk's payload besides its items (e.g. the message of a multi-recipient send). */
  context?: unknown;
  /**
   * The caller's row number of each item handed to the client, in order. A chunk's key then names its
   * rows instead of its chunk number: a retry that leaves out rows already sent gives every chunk it
   * sends whole again the key that chunk had, so the service replays it.
   */
  rows?: readonly number[];
}

/**
 * The n8n node's keys: from the lineage, node, run, operation, item, chunk number and the chunk's
 * payload. A retry of the same execution lineage gets the same keys (the service replays); a chunk
 * whose content changed gets a new one (never `idempotency_key_reused`).
 */
export function n8nChunkKeys(parts: N8nKeyParts): ChunkKeyFunction {
  const { lineageId, nodeId, runIndex, operation, itemIndex, context, rows } = parts;
  return ({ chunk, offset, items }) => {
    const where = rows ? `rows ${rows.slice(offset, offset + items.length).join(',')}` : chunk;
    return deriveIdempotencyKey('n8n', [lineageId, nodeId, runIndex, operation, itemIndex ?? '-', where], { context: context ?? null, items });
  };
}

/** What identifies a write whose items carry their own keys (the user's, one per item). */
export interface ItemKeyParts {
  /** The scope the user's keys mean something in: the workflow and the node. */
  workflowId: string;
  nodeId: string;
  operation: string;
  /** The user's key of each item handed to the client, in order. */
  keys: readonly string[];
  context?: unknown;
}

/**
 * Keys for items that carry their own keys: a chunk's key derives from its items' keys and payload, so
 * the same items with the same content replay and a chunk never reuses a key with another body.
 */
export function itemKeyChunkKeys(parts: ItemKeyParts): ChunkKeyFunction {
  const { workflowId, nodeId, operation, keys, context } = parts;
  return ({ offset, items }) => deriveIdempotencyKey('n8n-k', [workflowId, nodeId, operation], { keys: keys.slice(offset, offset + items.length), context: context ?? null, items });
}

/** What identifies one logical write of the GitHub Action. */
export interface ActionKeyParts {
  /** `owner/name`. */
  repository: string;
  /** GITHUB_RUN_ID. Never the run attempt: a re-run of the same run replays, a new run applies. */
  runId: string;
  /** GITHUB_JOB. */
  job: string;
  /** The step (GITHUB_ACTION), so two steps of one job never share keys. */
  step: string;
  /** The mode, e.g. `batch` or `sync-contacts`. */
  operation: string;
  /** What belongs to every chunk's payload besides its items. */
  context?: unknown;
}

/**
 * The action's keys, for messages and contact imports alike: from the run (not the attempt), the
 * chunk number and the chunk's content. "Re-run jobs" replays; a new run always applies, so a contacts
 * file reverted A → B → A is imported again on the third run.
 */
export function actionChunkKeys(parts: ActionKeyParts): ChunkKeyFunction {
  const { repository, runId, job, step, operation, context } = parts;
  return ({ chunk, items }) => deriveIdempotencyKey('gha', [repository, runId, job, step, operation, chunk], { context: context ?? null, items });
}
