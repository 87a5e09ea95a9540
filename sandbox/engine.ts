/**
 * The stateful core of the sandbox: accounts, keys, rate windows, messages, contacts, jobs, idempotency.
 * No HTTP here: handlers take parsed input and return a Reply; server.ts does the wire.
 */
import { mergeConfig } from './config.ts';
import type {
  AccountConfig,
  ContactLedgerRow,
  ContactView,
  DuplicateGroup,
  ErrorObject,
  JobLedgerRow,
  JobRowError,
  JobView,
  KeyConfig,
  Ledger,
  LedgerSummary,
  MessageRoute,
  MessageRow,
  SandboxConfig,
  SandboxConfigInput,
} from './types.ts';
import { E164, T, clone, err, isEmail, isPlainObject, newId, typeName } from './util.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Ctx {
  requestId: string;
  key: KeyConfig;
  account: AccountConfig;
  idempotencyKey: string | null;
}

interface Job extends JobLedgerRow {
  rows: unknown[];
  /** Fractional rows earned but not yet processed. */
  carry: number;
  /** Last time (ms) progress was computed. */
  lastMs: number;
}

interface IdemEntry {
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number;
  body: string;
  expiresAt: number;
}

export const CHANNELS = ['whatsapp', 'email'];
const CHANNEL_FIELDS: Record<string, string[]> = {
  whatsapp: ['channel', 'to', 'body'],
  email: ['channel', 'to', 'subject', 'body'],
};
/** Query or body names that carry a key; refused wherever they appear (§5.2). */
export const KEY_PARAM_NAMES = new Set(['api_key', 'apikey', 'api-key', 'key', 'token', 'access_token', 'authorization']);
export const MAX_BATCH = 500;
export const MAX_RECIPIENTS = 100;
export const MAX_CONTACTS = 1000;
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

export class Engine {
  loaded: SandboxConfig;
  config!: SandboxConfig;
  accounts = new Map<string, AccountConfig>();
  keys = new Map<string, KeyConfig>();
  messages: MessageRow[] = [];
  messagesById = new Map<string, MessageRow>();
  jobs: Job[] = [];
  jobsById = new Map<string, Job>();
  activeJobs = new Set<Job>();
  contacts: ContactLedgerRow[] = [];
  contactsByAccount = new Map<string, ContactLedgerRow[]>();
  contactsById = new Map<string, { contact: ContactLedgerRow; position: number }>();
  contactsByEmail = new Map<string, ContactLedgerRow>();
  contactsByWhatsapp = new Map<string, ContactLedgerRow>();
  idem = new Map<string, IdemEntry>();
  rate = new Map<string, { window: number; count: number }>();
  requests = 0;

  constructor(config: SandboxConfig) {
    this.loaded = clone(config);
    this.reset();
  }

  reset(): void {
    this.setConfig(clone(this.loaded));
    this.messages = [];
    this.messagesById.clear();
    this.jobs = [];
    this.jobsById.clear();
    this.activeJobs.clear();
    this.contacts = [];
    this.contactsByAccount.clear();
    this.contactsById.clear();
    this.contactsByEmail.clear();
    this.contactsByWhatsapp.clear();
    this.idem.clear();
    this.rate.clear();
    this.requests = 0;
  }

  private setConfig(c: SandboxConfig): void {
    this.config = c;
    this.accounts = new Map(c.accounts.map((a) => [a.id, a]));
    this.keys = new Map(c.keys.map((k) => [k.key, k]));
  }

  /** Merges a partial config into the live one (jobs are first brought up to date at the old speed). */
  configure(patch: SandboxConfigInput): SandboxConfig {
    const merged = mergeConfig(this.config, patch);
    this.observe(Date.now());
    this.setConfig(merged);
    return clone(merged);
  }

  fail(status: number, e: ErrorObject, headers?: Record<string, string>): Reply {
    return { status, body: { error: { ...e, doc_url: `${this.config.docs_url}#${e.code}` } }, headers };
  }

  // ---------------------------------------------------------------- auth and rate limit (§5, §8)

  /** The key behind an Authorization header, or the 401 reply. */
  authenticate(header: string | undefined, now: number): { key: KeyConfig; account: AccountConfig } | Reply {
    const m = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!m) return this.fail(401, err(T.auth, 'missing_api_key', 'No API key: send it as "Authorization: Bearer <API_KEY>".'));
    const key = this.keys.get(m[1]!);
    const account = key && this.accounts.get(key.account);
    if (!key || !account) return this.fail(401, err(T.auth, 'invalid_api_key', 'The API key matches no issued key.'));
    if (key.revoked) return this.fail(401, err(T.auth, 'api_key_revoked', 'This API key was revoked; issue a new key.'));
    if (key.expires_at !== undefined && Date.parse(key.expires_at) <= now)
      return this.fail(401, err(T.auth, 'api_key_expired', `This API key expired at ${key.expires_at}; issue a new key.`));
    return { key, account };
  }

  /** Account state checks (§5.6), after the key is identified. */
  accountCheck(account: AccountConfig): Reply | null {
    if (account.status !== 'active') {
      const state = account.status === 'deleting' ? 'being deleted' : account.status === 'trashed' ? 'in the trash' : 'suspended';
      return this.fail(403, err(T.permission, 'account_suspended', `The account is ${state}; a new key does not help.`));
    }
    if (!account.plan.running)
      return this.fail(403, err(T.permission, 'subscription_expired', 'The account has no running plan; the same key works again after renewal.'));
    return null;
  }

  /** Counts one call for the key; returns the rate-limit headers and whether the call is over the ceiling. */
  countCall(key: KeyConfig, account: AccountConfig, now: number): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const w = this.config.window_seconds;
    const window = Math.floor(now / 1000 / w);
    const reset = (window + 1) * w;
    let slot = this.rate.get(key.key);
    if (!slot || slot.window !== window) {
      slot = { window, count: 0 };
      this.rate.set(key.key, slot);
    }
    const limit = account.rate_limit;
    const exceeded = slot.count >= limit;
    if (!exceeded) slot.count++;
    const retryAfter = Math.max(1, Math.ceil(reset - now / 1000));
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - slot.count)),
      'X-RateLimit-Reset': String(reset),
    };
    return { headers, exceeded, retryAfter };
  }

  /** Seconds to the end of the current window (for a forced 429 without retry_after). */
  secondsToReset(now: number): number {
    const w = this.config.window_seconds;
    return Math.max(1, Math.ceil((Math.floor(now / 1000 / w) + 1) * w - now / 1000));
  }

  isIssuedKey(value: string): boolean {
    return this.keys.has(value);
  }

  // ---------------------------------------------------------------- idempotency (§4)

  idemSlot(account: string, key: string): string {
    return `${account}\n${key}`;
  }

  /** Looks up a key: a stored answer, a conflict, or null (the caller may proceed; the key is now in progress). */
  idemBegin(account: string, key: string, fingerprint: string, now: number): { replay: IdemEntry } | { conflict: Reply } | null {
    const slot = this.idemSlot(account, key);
    const e = this.idem.get(slot);
    if (e && e.state === 'done' && e.expiresAt <= now) this.idem.delete(slot);
    else if (e) {
      if (e.fingerprint !== fingerprint)
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body (or route).', 'Idempotency-Key')) };
      if (e.state === 'in_progress')
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_request_in_progress', 'The first request with this Idempotency-Key has not finished; retry with the same key to get its answer.', 'Idempotency-Key')) };
      return { replay: e };
    }
    this.idem.set(slot, { fingerprint, state: 'in_progress', status: 0, body: '', expiresAt: Infinity });
    return null;
  }

  idemCommit(account: string, key: string, status: number, body: string, now: number): void {
    const e = this.idem.get(this.idemSlot(account, key));
    if (!e) return;
    e.state = 'done';
    e.status = status;
    e.body = body;
    e.expiresAt = now + this.config.idempotency_retention_seconds * 1000;
  }

  idemRelease(account: string, key: string): void {
    const slot = this.idemSlot(account, key);
    if (this.idem.get(slot)?.state === 'in_progress') this.idem.delete(slot);
  }

  // ---------------------------------------------------------------- messages (§2, §4)

  /** Validates one message element; the error, or null. */
  private checkElement(el: unknown): ErrorObject | null {
    if (!isPlainObject(el)) return err(T.invalid, 'validation_failed', `A message element must be an object, got ${typeName(el)}.`);
    const channel = el.channel;
    if (channel === undefined) return err(T.invalid, 'validation_failed', 'channel is required.', 'channel');
    if (typeof channel !== 'string') return err(T.invalid, 'validation_failed', `channel must be a string, got ${typeName(channel)}.`, 'channel');
    const fields = CHANNEL_FIELDS[channel];
    if (!fields) return err(T.invalid, 'validation_failed', `Unknown channel "${channel}"; known channels: ${CHANNELS.join(', ')}.`, 'channel');
    for (const f of Object.keys(el))
      if (!fields.includes(f)) return err(T.invalid, 'validation_failed', `Field "${f}" is not allowed on channel ${channel}.`, f);
    return this.checkTo(channel, el.to) ?? this.checkContent(el.subject, el.body);
  }

  private checkTo(channel: string, to: unknown): ErrorObject | null {
    if (to === undefined) return err(T.invalid, 'validation_failed', 'to is required.', 'to');
    if (typeof to !== 'string') return err(T.invalid, 'validation_failed', `to must be a string, got ${typeName(to)}.`, 'to');
    if (channel === 'whatsapp' && !E164.test(to))
      return err(T.invalid, 'validation_failed', 'to must be a phone number in international format (E.164, e.g. +4915112345678).', 'to');
    if (channel === 'email' && !isEmail(to)) return err(T.invalid, 'validation_failed', 'to must be an e-mail address.', 'to');
    return null;
  }

  private checkContent(subject: unknown, body: unknown): ErrorObject | null {
    if (subject !== undefined && typeof subject !== 'string')
      return err(T.invalid, 'validation_failed', `subject must be a string, got ${typeName(subject)}.`, 'subject');
    if (body === undefined) return err(T.invalid, 'validation_failed', 'body is required.', 'body');
    if (typeof body !== 'string') return err(T.invalid, 'validation_failed', `body must be a string, got ${typeName(body)}.`, 'body');
    if (body.trim() === '') return err(T.invalid, 'validation_failed', 'body must not be empty.', 'body');
    return null;
  }

  private notInPlan(account: AccountConfig, channel: string): ErrorObject | null {
    return account.plan.channels.includes(channel)
      ? null
      : err(T.permission, 'channel_not_in_plan', `The plan "${account.plan.name}" does not include the ${channel} channel.`, 'channel');
  }

  private noSender(account: AccountConfig, channel: string): ErrorObject | null {
    const s = account.senders[channel] ?? 'none';
    if (s === 'online') return null;
    return err(T.invalid, 'no_sender_available', s === 'offline' ? `Every ${channel} sender is offline; nothing was sent and no credit was spent.` : `No ${channel} sender is connected; nothing was sent and no credit was spent.`, 'channel');
  }

  private insufficient(account: AccountConfig, needed: number): Reply {
    return this.fail(402, err(T.invalid, 'insufficient_credits', `Not enough credit: this call needs ${needed}, the account has ${account.credits}. Nothing was sent; retry the identical call after a top-up.`));
  }

  private createMessage(ctx: Ctx, route: MessageRoute, index: number, channel: string, to: string, subject: string | null, body: string, createdAt: string): MessageRow {
    const row: MessageRow = {
      id: newId('msg'),
      account: ctx.account.id,
      key_id: ctx.key.key,
      idempotency_key: ctx.idempotencyKey,
      request_id: ctx.requestId,
      route,
      element_index: index,
      channel,
      to,
      subject,
      body,
      status: 'sent',
      created_at: createdAt,
    };
    this.messages.push(row);
    this.messagesById.set(row.id, row);
    return row;
  }

  /** Unknown top-level fields: 422 naming them (param when exactly one). */
  private unknownFields(body: Record<string, unknown>, allowed: string[]): Reply | null {
    const bad = Object.keys(body).filter((k) => !allowed.includes(k));
    if (bad.length === 0) return null;
    return this.fail(422, err(T.invalid, 'validation_failed', `Unknown field${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}; allowed: ${allowed.join(', ')}.`, bad.length === 1 ? bad[0] : undefined));
  }

  /** POST /messages/batch */
  sendBatch(ctx: Ctx, body: Record<string, unknown>): Reply {
    const unknown = this.unknownFields(body, ['messages']);
    if (unknown) return unknown;
    const list = body.messages;
    if (!Array.isArray(list)) return this.fail(422, err(T.invalid, 'validation_failed', list === undefined ? 'messages is required.' : `messages must be an array, got ${typeName(list)}.`, 'messages'));
    if (list.length < 1 || list.length > MAX_BATCH)
      return this.fail(422, err(T.invalid, 'validation_failed', `messages must hold 1 to ${MAX_BATCH} elements, got ${list.length}.`, 'messages'));
    const account = ctx.account;
    const outcome: (ErrorObject | null)[] = new Array(list.length);
    let sendable = 0;
    for (let i = 0; i < list.length; i++) {
      const el = list[i];
      let e = this.checkElement(el);
      if (!e) {
        const channel = (el as { channel: string }).channel;
        e = this.notInPlan(account, channel) ?? this.noSender(account, channel);
      }
      outcome[i] = e;
      if (!e) sendable++;
    }
    if (sendable > account.credits) return this.insufficient(account, sendable);
    account.credits -= sendable;
    const createdAt = new Date().toISOString();
    const data = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const e = outcome[i];
      if (e) {
        data[i] = { index: i, error: e };
      } else {
        const el = list[i] as { channel: string; to: string; subject?: string; body: string };
        const row = this.createMessage(ctx, 'POST /messages/batch', i, el.channel, el.to, el.subject ?? null, el.body, createdAt);
        data[i] = { index: i, id: row.id };
      }
    }
    return { status: 200, body: { data } };
  }

  /** POST /messages (sandbox shape: { channel, to: string[], subject?, body }) */
  sendMessages(ctx: Ctx, body: Record<string, unknown>): Reply {
    const channel = body.channel;
    if (channel === undefined) return this.fail(422, err(T.invalid, 'validation_failed', 'channel is required.', 'channel'));
    if (typeof channel !== 'string') return this.fail(422, err(T.invalid, 'validation_failed', `channel must be a string, got ${typeName(channel)}.`, 'channel'));
    const fields = CHANNEL_FIELDS[channel];
    if (!fields) return this.fail(422, err(T.invalid, 'validation_failed', `Unknown channel "${channel}"; known channels: ${CHANNELS.join(', ')}.`, 'channel'));
    const unknown = this.unknownFields(body, ['channel', 'to', 'subject', 'body']);
    if (unknown) return unknown;
    if (!fields.includes('subject') && body.subject !== undefined)
      return this.fail(422, err(T.invalid, 'validation_failed', `Field "subject" is not allowed on channel ${channel}.`, 'subject'));
    const to = body.to;
    if (!Array.isArray(to))
      return this.fail(422, err(T.invalid, 'validation_failed', to === undefined ? 'to is required (an array of recipients).' : `to must be an array of recipients, got ${typeName(to)}.`, 'to'));
    if (to.length < 1 || to.length > MAX_RECIPIENTS)
      return this.fail(422, err(T.invalid, 'validation_failed', `to must hold 1 to ${MAX_RECIPIENTS} recipients, got ${to.length}.`, 'to'));
    const content = this.checkContent(body.subject, body.body);
    if (content) return this.fail(422, content);
    const account = ctx.account;
    const gate = this.notInPlan(account, channel);
    if (gate) return this.fail(403, gate);
    const sender = this.noSender(account, channel);
    if (sender) return this.fail(422, sender);
    const outcome = to.map((r) => this.checkTo(channel, r));
    const sendable = outcome.filter((e) => e === null).length;
    if (sendable > account.credits) return this.insufficient(account, sendable);
    account.credits -= sendable;
    const createdAt = new Date().toISOString();
    const subject = typeof body.subject === 'string' ? body.subject : null;
    const data = to.map((r, i) => {
      const e = outcome[i];
      if (e) return { index: i, to: r, error: e };
      const row = this.createMessage(ctx, 'POST /messages', i, channel, r as string, subject, body.body as string, createdAt);
      return { index: i, to: r, id: row.id };
    });
    return { status: 200, body: { data } };
  }

  /** GET /messages/{id} */
  getMessage(ctx: Ctx, id: string): Reply {
    const m = this.messagesById.get(id);
    if (!m || m.account !== ctx.account.id) return this.notFound('message', id);
    const data: Record<string, unknown> = { object: 'message', id: m.id, channel: m.channel, to: m.to };
    if (m.channel === 'email') data.subject = m.subject;
    data.body = m.body;
    data.status = m.status;
    data.created_at = m.created_at;
    return { status: 200, body: { data } };
  }

  notFound(what: string, id: string): Reply {
    return this.fail(404, err(T.invalid, 'resource_not_found', `No ${what} with id "${id}" in this account.`, 'id'));
  }

  // ---------------------------------------------------------------- contacts and jobs (§4)

  /** POST /contacts/bulk */
  bulkContacts(ctx: Ctx, body: Record<string, unknown>, now: number): Reply {
    const unknown = this.unknownFields(body, ['contacts']);
    if (unknown) return unknown;
    const list = body.contacts;
    if (!Array.isArray(list)) return this.fail(422, err(T.invalid, 'validation_failed', list === undefined ? 'contacts is required.' : `contacts must be an array, got ${typeName(list)}.`, 'contacts'));
    if (list.length < 1 || list.length > MAX_CONTACTS)
      return this.fail(422, err(T.invalid, 'validation_failed', `contacts must hold 1 to ${MAX_CONTACTS} elements, got ${list.length}.`, 'contacts'));
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
    this.jobs.push(job);
    this.jobsById.set(job.id, job);
    this.activeJobs.add(job);
    return { status: 202, body: { data: jobView(job) } };
  }

  /** GET /jobs/{id} */
  getJob(ctx: Ctx, id: string): Reply {
    const j = this.jobsById.get(id);
    if (!j || j.account !== ctx.account.id) return this.notFound('job', id);
    return { status: 200, body: { data: jobView(j) } };
  }

  /** Brings every running job up to `now` (progress is computed lazily from elapsed time). */
  observe(now: number): void {
    if (this.activeJobs.size === 0) return;
    const rps = this.config.job_rows_per_second;
    for (const job of this.activeJobs) {
      const elapsed = Math.max(0, now - job.lastMs);
      if (rps <= 0) {
        job.lastMs = now;
        continue;
      }
      const earned = job.carry + (elapsed * rps) / 1000;
      const remaining = job.total - job.processed;
      const n = Math.min(remaining, Math.floor(earned));
      if (n >= remaining) {
        const doneAt = job.lastMs + ((remaining - job.carry) * 1000) / rps;
        for (let i = 0; i < n; i++) this.processRow(job);
        job.carry = 0;
        job.status = 'completed';
        job.completed_at = new Date(Math.min(now, Math.max(job.lastMs, Math.round(doneAt)))).toISOString();
        this.activeJobs.delete(job);
      } else {
        for (let i = 0; i < n; i++) this.processRow(job);
        job.carry = earned - n;
        if (job.processed > 0) job.status = 'processing';
      }
      job.lastMs = now;
    }
  }

  private processRow(job: Job): void {
    const index = job.processed;
    const row = job.rows[index];
    const account = this.accounts.get(job.account);
    const e = account ? this.writeContact(account, job, index, row) : err(T.api, 'internal_error', 'The account no longer exists.');
    job.processed++;
    if (e) {
      job.failed++;
      const rowError: JobRowError = { index, error: e };
      job.errors.push(rowError);
    }
  }

  private writeContact(account: AccountConfig, job: Job, index: number, row: unknown): ErrorObject | null {
    if (!isPlainObject(row)) return err(T.invalid, 'validation_failed', `A contact must be an object, got ${typeName(row)}.`);
    const attrs = account.contact_attributes ?? [];
    const allowed = ['first_name', 'whatsapp', 'email', ...attrs.map((a) => a.key)];
    for (const f of Object.keys(row))
      if (!allowed.includes(f)) return err(T.invalid, 'validation_failed', `Field "${f}" is not a contact field or attribute of this account.`, f);
    const { first_name, whatsapp, email } = row;
    if (first_name !== undefined && typeof first_name !== 'string')
      return err(T.invalid, 'validation_failed', `first_name must be a string, got ${typeName(first_name)}.`, 'first_name');
    if (whatsapp !== undefined && (typeof whatsapp !== 'string' || !E164.test(whatsapp)))
      return err(T.invalid, 'validation_failed', 'whatsapp must be a phone number in international format (E.164).', 'whatsapp');
    if (email !== undefined && (typeof email !== 'string' || !isEmail(email)))
      return err(T.invalid, 'validation_failed', 'email must be an e-mail address.', 'email');
    if (whatsapp === undefined && email === undefined)
      return err(T.invalid, 'validation_failed', 'A contact needs whatsapp or email.');
    const attributes: Record<string, unknown> = {};
    for (const a of attrs) {
      const v = row[a.key];
      if (v === undefined) continue;
      const t = a.type ?? 'text';
      const ok = t === 'number' ? typeof v === 'number' && Number.isFinite(v) : t === 'boolean' ? typeof v === 'boolean' : t === 'date' ? typeof v === 'string' && !Number.isNaN(Date.parse(v)) : typeof v === 'string';
      if (!ok) return err(T.invalid, 'validation_failed', `Attribute ${a.key} must be of type ${t}.`, a.key);
      attributes[a.key] = v;
    }
    const byEmail = typeof email === 'string' ? this.contactsByEmail.get(`${account.id}\n${email.toLowerCase()}`) : undefined;
    const byPhone = typeof whatsapp === 'string' ? this.contactsByWhatsapp.get(`${account.id}\n${whatsapp}`) : undefined;
    if (byEmail && byPhone && byEmail !== byPhone)
      return err(T.invalid, 'request_refused', 'This row matches two different contacts (one by email, one by whatsapp); nothing was changed.');
    const now = new Date().toISOString();
    const existing = byEmail ?? byPhone;
    if (existing) {
      if (first_name !== undefined) existing.first_name = first_name as string;
      if (typeof email === 'string' && existing.email !== email) {
        if (existing.email) this.contactsByEmail.delete(`${account.id}\n${existing.email.toLowerCase()}`);
        existing.email = email;
        this.contactsByEmail.set(`${account.id}\n${email.toLowerCase()}`, existing);
      }
      if (typeof whatsapp === 'string' && existing.whatsapp !== whatsapp) {
        if (existing.whatsapp) this.contactsByWhatsapp.delete(`${account.id}\n${existing.whatsapp}`);
        existing.whatsapp = whatsapp;
        this.contactsByWhatsapp.set(`${account.id}\n${whatsapp}`, existing);
      }
      Object.assign(existing.attributes, attributes);
      existing.updated_at = now;
      existing.writes.push({ job_id: job.id, index, action: 'updated' });
      return null;
    }
    const c: ContactLedgerRow = {
      object: 'contact',
      id: newId('con'),
      first_name: (first_name as string | undefined) ?? null,
      whatsapp: (whatsapp as string | undefined) ?? null,
      email: (email as string | undefined) ?? null,
      attributes,
      created_at: now,
      updated_at: now,
      account: account.id,
      job_id: job.id,
      writes: [{ job_id: job.id, index, action: 'created' }],
    };
    let list = this.contactsByAccount.get(account.id);
    if (!list) this.contactsByAccount.set(account.id, (list = []));
    this.contactsById.set(c.id, { contact: c, position: list.length });
    list.push(c);
    this.contacts.push(c);
    if (c.email) this.contactsByEmail.set(`${account.id}\n${c.email.toLowerCase()}`, c);
    if (c.whatsapp) this.contactsByWhatsapp.set(`${account.id}\n${c.whatsapp}`, c);
    return null;
  }

  /** GET /contacts */
  listContacts(ctx: Ctx, query: URLSearchParams): Reply {
    const unknown = this.unknownQuery(query, ['limit', 'starting_after']);
    if (unknown) return unknown;
    let limit = DEFAULT_PAGE;
    const limits = query.getAll('limit');
    if (limits.length > 1) return this.fail(422, err(T.invalid, 'validation_failed', 'limit may be given once.', 'limit'));
    if (limits.length === 1) {
      const s = limits[0]!;
      if (!/^\d{1,6}$/.test(s) || Number(s) < 1 || Number(s) > MAX_PAGE)
        return this.fail(422, err(T.invalid, 'validation_failed', `limit must be a whole number from 1 to ${MAX_PAGE}.`, 'limit'));
      limit = Number(s);
    }
    const list = this.contactsByAccount.get(ctx.account.id) ?? [];
    let from = 0;
    const afters = query.getAll('starting_after');
    if (afters.length > 1) return this.fail(422, err(T.invalid, 'validation_failed', 'starting_after may be given once.', 'starting_after'));
    if (afters.length === 1) {
      const hit = this.contactsById.get(afters[0]!);
      if (!hit || hit.contact.account !== ctx.account.id)
        return this.fail(422, err(T.invalid, 'validation_failed', 'starting_after is not a cursor of this list; pass back meta.next_cursor.', 'starting_after'));
      from = hit.position + 1;
    }
    const page = list.slice(from, from + limit);
    const hasMore = from + limit < list.length;
    return {
      status: 200,
      body: { data: page.map(contactView), meta: { has_more: hasMore, next_cursor: hasMore ? page[page.length - 1]!.id : null } },
    };
  }

  /** GET /contact-attributes */
  listAttributes(ctx: Ctx): Reply {
    const data = (ctx.account.contact_attributes ?? []).map((a) => ({ object: 'contact_attribute', key: a.key, label: a.label ?? a.key, type: a.type ?? 'text' }));
    return { status: 200, body: { data } };
  }

  /** GET /account */
  getAccount(ctx: Ctx): Reply {
    const a = ctx.account;
    return {
      status: 200,
      body: { data: { object: 'account', id: a.id, name: a.name, status: a.status, plan: { name: a.plan.name, channels: [...a.plan.channels], running: a.plan.running }, credits: a.credits, rate_limit: a.rate_limit } },
    };
  }

  unknownQuery(query: URLSearchParams, allowed: string[]): Reply | null {
    const bad = [...new Set([...query.keys()].filter((k) => !allowed.includes(k)))];
    if (bad.length === 0) return null;
    return this.fail(422, err(T.invalid, 'validation_failed', `Unknown query parameter${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}.`, bad.length === 1 ? bad[0] : undefined));
  }

  // ---------------------------------------------------------------- ledger

  ledger(): Ledger {
    this.observe(Date.now());
    return {
      messages: this.messages.map((m) => ({ ...m })),
      jobs: this.jobs.map(jobLedgerRow),
      contacts: this.contacts.map((c) => ({ ...c, attributes: { ...c.attributes }, writes: [...c.writes] })),
      requests: this.requests,
    };
  }

  summary(): LedgerSummary {
    this.observe(Date.now());
    const byKey: Record<string, number> = {};
    const groups = new Map<string, DuplicateGroup>();
    for (const m of this.messages) {
      if (m.idempotency_key !== null) {
        const k = `${m.account}/${m.idempotency_key}`;
        byKey[k] = (byKey[k] ?? 0) + 1;
      }
      const g = JSON.stringify([m.account, m.channel, m.to, m.subject, m.body]);
      const grp = groups.get(g);
      if (grp) {
        grp.count++;
        grp.ids.push(m.id);
      } else groups.set(g, { account: m.account, channel: m.channel, to: m.to, subject: m.subject, body: m.body, count: 1, ids: [m.id] });
    }
    const duplicates = [...groups.values()].filter((g) => g.count > 1);
    return {
      messages: this.messages.length,
      messages_by_idempotency_key: byKey,
      duplicates_detected: duplicates.reduce((s, g) => s + g.count - 1, 0),
      duplicates,
      jobs: this.jobs.length,
      contacts: this.contacts.length,
      requests: this.requests,
    };
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

function jobLedgerRow(j: Job): JobLedgerRow {
  return { ...jobView(j), account: j.account, key_id: j.key_id, idempotency_key: j.idempotency_key, request_id: j.request_id };
}

export function contactView(c: ContactLedgerRow): ContactView {
  return {
    object: 'contact',
    id: c.id,
    first_name: c.first_name,
    whatsapp: c.whatsapp,
    email: c.email,
    attributes: { ...c.attributes },
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
