/** Bulk-import jobs (§4): POST /contacts/bulk, GET /jobs/{id}, and progress computed lazily from elapsed time. */
import type { Ctx, Fail, Reply } from '../replies.ts';
import { notFound, unknownFields } from '../replies.ts';
import type { AccountConfig, JobLedgerRow, JobView } from '../types.ts';
import { T, err, newId, typeName } from '../util.ts';
import type { Contacts } from './contacts.ts';

export const MAX_CONTACTS = 1000;

interface Job extends JobLedgerRow {
  rows: unknown[];
  /** Fractional rows earned but not yet processed. */
  carry: number;
  /** Last time (ms) progress was computed. */
  lastMs: number;
}

export interface JobsDeps {
  fail: Fail;
  contacts: Contacts;
  account: (id: string) => AccountConfig | undefined;
  rowsPerSecond: () => number;
}

export class Jobs {
  rows: Job[] = [];
  private byId = new Map<string, Job>();
  private active = new Set<Job>();
  private readonly deps: JobsDeps;

  constructor(deps: JobsDeps) {
    this.deps = deps;
  }

  reset(): void {
    this.rows = [];
    this.byId.clear();
    this.active.clear();
  }

  /** POST /contacts/bulk */
  bulk(ctx: Ctx, body: Record<string, unknown>, now: number): Reply {
    const fail = this.deps.fail;
    const unknown = unknownFields(fail, body, ['contacts']);
    if (unknown) return unknown;
    const list = body.contacts;
    if (!Array.isArray(list)) return fail(422, err(T.invalid, 'validation_failed', list === undefined ? 'contacts is required.' : `contacts must be an array, got ${typeName(list)}.`, 'contacts'));
    if (list.length < 1 || list.length > MAX_CONTACTS)
      return fail(422, err(T.invalid, 'validation_failed', `contacts must hold 1 to ${MAX_CONTACTS} elements, got ${list.length}.`, 'contacts'));
    const job: Job = {
      object: 'job',
      id: newId('job'),
      type: 'contacts.bulk',
      status: 'queued',
      total: list.length,
      processed: 0,
      failed: 0,
      errors: [],
      created_at: new Date(now).toISOString(),
      completed_at: null,
      account: ctx.account.id,
      key_id: ctx.key.key,
      idempotency_key: ctx.idempotencyKey,
      request_id: ctx.requestId,
      rows: list,
      carry: 0,
      lastMs: now,
    };
    this.rows.push(job);
    this.byId.set(job.id, job);
    this.active.add(job);
    return { status: 202, body: { data: jobView(job) } };
  }

  /** GET /jobs/{id} */
  get(ctx: Ctx, id: string): Reply {
    const j = this.byId.get(id);
    if (!j || j.account !== ctx.account.id) return notFound(this.deps.fail, 'job', id);
    return { status: 200, body: { data: jobView(j) } };
  }

  /** Brings every running job up to `now` (progress is computed lazily from elapsed time); true when a row was processed. */
  observe(now: number): boolean {
    if (this.active.size === 0) return false;
    let progressed = false;
    const rps = this.deps.rowsPerSecond();
    for (const job of this.active) {
      const elapsed = Math.max(0, now - job.lastMs);
      if (rps <= 0) {
        job.lastMs = now;
        continue;
      }
      const earned = job.carry + (elapsed * rps) / 1000;
      const remaining = job.total - job.processed;
      // The carry is a float sum: 0.8 + 0.2 can come to 0.9999…; a row due on the millisecond is due.
      const n = Math.min(remaining, Math.floor(earned + 1e-9));
      if (n >= remaining) {
        const doneAt = job.lastMs + ((remaining - job.carry) * 1000) / rps;
        for (let i = 0; i < n; i++) this.processRow(job, now);
        progressed = true;
        job.carry = 0;
        job.status = 'completed';
        job.completed_at = new Date(Math.min(now, Math.max(job.lastMs, Math.round(doneAt)))).toISOString();
        this.active.delete(job);
      } else {
        for (let i = 0; i < n; i++) this.processRow(job, now);
        if (n > 0) progressed = true;
        job.carry = Math.max(0, earned - n);
        if (job.processed > 0) job.status = 'processing';
      }
      job.lastMs = now;
    }
    return progressed;
  }

  /** Ledger rows of jobs `start` to `end` (exclusive), in creation order. */
  ledgerRows(start: number, end: number): JobLedgerRow[] {
    return this.rows.slice(start, end).map((j) => ({ ...jobView(j), account: j.account, key_id: j.key_id, idempotency_key: j.idempotency_key, request_id: j.request_id }));
  }

  private processRow(job: Job, now: number): void {
    const index = job.processed;
    const account = this.deps.account(job.account);
    const e = account ? this.deps.contacts.write(account, job.id, index, job.rows[index], new Date(now).toISOString()) : err(T.api, 'internal_error', 'The account no longer exists.');
    job.processed++;
    if (e) {
      job.failed++;
      job.errors.push({ index, error: e });
    }
  }
}

export function jobView(j: JobView): JobView {
  return {
    object: 'job',
    id: j.id,
    type: j.type,
    status: j.status,
    total: j.total,
    processed: j.processed,
    failed: j.failed,
    errors: j.errors.slice(),
    created_at: j.created_at,
    completed_at: j.completed_at,
  };
}
