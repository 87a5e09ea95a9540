/** Contacts (§4): writing one import row (create or update by email / whatsapp), GET /contacts. */
import type { Ctx, Fail, Reply } from '../replies.ts';
import { unknownQuery } from '../replies.ts';
import type { AccountConfig, ContactLedgerRow, ContactView, ErrorObject } from '../types.ts';
import { E164, T, err, isEmail, isPlainObject, newId, typeName } from '../util.ts';

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

export class Contacts {
  rows: ContactLedgerRow[] = [];
  private byAccount = new Map<string, ContactLedgerRow[]>();
  private byId = new Map<string, { contact: ContactLedgerRow; position: number }>();
  private byEmail = new Map<string, ContactLedgerRow>();
  private byWhatsapp = new Map<string, ContactLedgerRow>();
  private readonly fail: Fail;

  constructor(fail: Fail) {
    this.fail = fail;
  }

  reset(): void {
    this.rows = [];
    this.byAccount.clear();
    this.byId.clear();
    this.byEmail.clear();
    this.byWhatsapp.clear();
  }

  /** Writes one import row of a job; the row error, or null. */
  write(account: AccountConfig, jobId: string, index: number, row: unknown, now: string): ErrorObject | null {
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
    const emailKey = (e: string): string => `${account.id}\n${e.toLowerCase()}`;
    const phoneKey = (p: string): string => `${account.id}\n${p}`;
    const byEmail = typeof email === 'string' ? this.byEmail.get(emailKey(email)) : undefined;
    const byPhone = typeof whatsapp === 'string' ? this.byWhatsapp.get(phoneKey(whatsapp)) : undefined;
    if (byEmail && byPhone && byEmail !== byPhone)
      return err(T.invalid, 'request_refused', 'This row matches two different contacts (one by email, one by whatsapp); nothing was changed.');
    const existing = byEmail ?? byPhone;
    if (existing) {
      if (first_name !== undefined) existing.first_name = first_name as string;
      if (typeof email === 'string' && existing.email !== email) {
        if (existing.email) this.byEmail.delete(emailKey(existing.email));
        existing.email = email;
        this.byEmail.set(emailKey(email), existing);
      }
      if (typeof whatsapp === 'string' && existing.whatsapp !== whatsapp) {
        if (existing.whatsapp) this.byWhatsapp.delete(phoneKey(existing.whatsapp));
        existing.whatsapp = whatsapp;
        this.byWhatsapp.set(phoneKey(whatsapp), existing);
      }
      Object.assign(existing.attributes, attributes);
      existing.updated_at = now;
      existing.writes.push({ job_id: jobId, index, action: 'updated' });
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
      job_id: jobId,
      writes: [{ job_id: jobId, index, action: 'created' }],
    };
    let list = this.byAccount.get(account.id);
    if (!list) this.byAccount.set(account.id, (list = []));
    this.byId.set(c.id, { contact: c, position: list.length });
    list.push(c);
    this.rows.push(c);
    if (c.email) this.byEmail.set(emailKey(c.email), c);
    if (c.whatsapp) this.byWhatsapp.set(phoneKey(c.whatsapp), c);
    return null;
  }

  /** GET /contacts */
  list(ctx: Ctx, query: URLSearchParams): Reply {
    const unknown = unknownQuery(this.fail, query, ['limit', 'starting_after']);
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
    const list = this.byAccount.get(ctx.account.id) ?? [];
    let from = 0;
    const afters = query.getAll('starting_after');
    if (afters.length > 1) return this.fail(422, err(T.invalid, 'validation_failed', 'starting_after may be given once.', 'starting_after'));
    if (afters.length === 1) {
      const hit = this.byId.get(afters[0]!);
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
