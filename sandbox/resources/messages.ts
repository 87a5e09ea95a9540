/** Messages (§2, §4): element checks per channel, POST /messages/batch, POST /messages, GET /messages/{id}. */
import type { Ctx, Fail, Reply } from '../replies.ts';
import { notFound, unknownFields } from '../replies.ts';
import type { AccountConfig, ErrorObject, MessageRoute, MessageRow } from '../types.ts';
import { MessageStore } from './message-store.ts';
import { E164, T, err, isEmail, isPlainObject, newId, typeName } from '../util.ts';

export const CHANNELS = ['whatsapp', 'email'];
/** A Map, so a channel named like a prototype member ("constructor", "__proto__") is simply unknown. */
const CHANNEL_FIELDS = new Map<string, string[]>([
  ['whatsapp', ['channel', 'to', 'body']],
  ['email', ['channel', 'to', 'subject', 'body']],
]);
export const MAX_BATCH = 500;
export const MAX_RECIPIENTS = 100;

export class Messages {
  readonly store: MessageStore;
  private readonly fail: Fail;

  constructor(fail: Fail, retain: () => number) {
    this.fail = fail;
    this.store = new MessageStore(retain);
  }

  reset(): void {
    this.store.reset();
  }

  /** POST /messages/batch */
  sendBatch(ctx: Ctx, body: Record<string, unknown>, createdAt: string): Reply {
    const unknown = unknownFields(this.fail, body, ['messages']);
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
      let e = checkElement(el);
      if (!e) {
        const channel = (el as { channel: string }).channel;
        e = notInPlan(account, channel) ?? noSender(account, channel);
      }
      outcome[i] = e;
      if (!e) sendable++;
    }
    if (sendable > account.credits) return this.insufficient(account, sendable);
    account.credits -= sendable;
    const data = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const e = outcome[i];
      if (e) {
        data[i] = { index: i, error: e };
      } else {
        const el = list[i] as { channel: string; to: string; subject?: string; body: string };
        const row = this.create(ctx, 'POST /messages/batch', i, el.channel, el.to, el.subject ?? null, el.body, createdAt);
        data[i] = { index: i, id: row.id };
      }
    }
    return { status: 200, body: { data } };
  }

  /** POST /messages (sandbox shape: { channel, to: string[], subject?, body }) */
  sendToMany(ctx: Ctx, body: Record<string, unknown>, createdAt: string): Reply {
    const channel = body.channel;
    if (channel === undefined) return this.fail(422, err(T.invalid, 'validation_failed', 'channel is required.', 'channel'));
    if (typeof channel !== 'string') return this.fail(422, err(T.invalid, 'validation_failed', `channel must be a string, got ${typeName(channel)}.`, 'channel'));
    const fields = channelFields(channel);
    if (!fields) return this.fail(422, unknownChannel(channel));
    const unknown = unknownFields(this.fail, body, ['channel', 'to', 'subject', 'body']);
    if (unknown) return unknown;
    if (!fields.includes('subject') && body.subject !== undefined)
      return this.fail(422, err(T.invalid, 'validation_failed', `Field "subject" is not allowed on channel ${channel}.`, 'subject'));
    const to = body.to;
    if (!Array.isArray(to))
      return this.fail(422, err(T.invalid, 'validation_failed', to === undefined ? 'to is required (an array of recipients).' : `to must be an array of recipients, got ${typeName(to)}.`, 'to'));
    if (to.length < 1 || to.length > MAX_RECIPIENTS)
      return this.fail(422, err(T.invalid, 'validation_failed', `to must hold 1 to ${MAX_RECIPIENTS} recipients, got ${to.length}.`, 'to'));
    const content = checkContent(body.subject, body.body);
    if (content) return this.fail(422, content);
    const account = ctx.account;
    const gate = notInPlan(account, channel);
    if (gate) return this.fail(403, gate);
    const sender = noSender(account, channel);
    if (sender) return this.fail(422, sender);
    const outcome = to.map((r) => checkTo(channel, r));
    const sendable = outcome.filter((e) => e === null).length;
    if (sendable > account.credits) return this.insufficient(account, sendable);
    account.credits -= sendable;
    const subject = typeof body.subject === 'string' ? body.subject : null;
    const data = to.map((r, i) => {
      const e = outcome[i];
      if (e) return { index: i, to: r, error: e };
      const row = this.create(ctx, 'POST /messages', i, channel, r as string, subject, body.body as string, createdAt);
      return { index: i, to: r, id: row.id };
    });
    return { status: 200, body: { data } };
  }

  /** GET /messages/{id} */
  get(ctx: Ctx, id: string): Reply {
    const m = this.store.get(id);
    if (!m || m.account !== ctx.account.id) return notFound(this.fail, 'message', id);
    const data: Record<string, unknown> = { object: 'message', id: m.id, channel: m.channel, to: m.to };
    if (m.channel === 'email') data.subject = m.subject;
    data.body = m.body;
    data.status = m.status;
    data.created_at = m.created_at;
    return { status: 200, body: { data } };
  }

  private insufficient(account: AccountConfig, needed: number): Reply {
    return this.fail(402, err(T.invalid, 'insufficient_credits', `Not enough credit: this call needs ${needed}, the account has ${account.credits}. Nothing was sent; retry the identical call after a top-up.`));
  }

  private create(ctx: Ctx, route: MessageRoute, index: number, channel: string, to: string, subject: string | null, body: string, createdAt: string): MessageRow {
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
    this.store.add(row);
    return row;
  }
}

/** The fields a channel allows, or undefined for an unknown channel. */
function channelFields(channel: string): string[] | undefined {
  return CHANNEL_FIELDS.get(channel);
}

function unknownChannel(channel: string): ErrorObject {
  return err(T.invalid, 'validation_failed', `Unknown channel "${channel}"; known channels: ${CHANNELS.join(', ')}.`, 'channel');
}

/** Validates one message element; the error, or null. */
function checkElement(el: unknown): ErrorObject | null {
  if (!isPlainObject(el)) return err(T.invalid, 'validation_failed', `A message element must be an object, got ${typeName(el)}.`);
  const channel = el.channel;
  if (channel === undefined) return err(T.invalid, 'validation_failed', 'channel is required.', 'channel');
  if (typeof channel !== 'string') return err(T.invalid, 'validation_failed', `channel must be a string, got ${typeName(channel)}.`, 'channel');
  const fields = channelFields(channel);
  if (!fields) return unknownChannel(channel);
  for (const f of Object.keys(el))
    if (!fields.includes(f)) return err(T.invalid, 'validation_failed', `Field "${f}" is not allowed on channel ${channel}.`, f);
  return checkTo(channel, el.to) ?? checkContent(el.subject, el.body);
}

function checkTo(channel: string, to: unknown): ErrorObject | null {
  if (to === undefined) return err(T.invalid, 'validation_failed', 'to is required.', 'to');
  if (typeof to !== 'string') return err(T.invalid, 'validation_failed', `to must be a string, got ${typeName(to)}.`, 'to');
  if (channel === 'whatsapp' && !E164.test(to))
    return err(T.invalid, 'validation_failed', 'to must be a phone number in international format (E.164, e.g. +4915112345678).', 'to');
  if (channel === 'email' && !isEmail(to)) return err(T.invalid, 'validation_failed', 'to must be an e-mail address.', 'to');
  return null;
}

function checkContent(subject: unknown, body: unknown): ErrorObject | null {
  if (subject !== undefined && typeof subject !== 'string')
    return err(T.invalid, 'validation_failed', `subject must be a string, got ${typeName(subject)}.`, 'subject');
  if (body === undefined) return err(T.invalid, 'validation_failed', 'body is required.', 'body');
  if (typeof body !== 'string') return err(T.invalid, 'validation_failed', `body must be a string, got ${typeName(body)}.`, 'body');
  if (body.trim() === '') return err(T.invalid, 'validation_failed', 'body must not be empty.', 'body');
  return null;
}

function notInPlan(account: AccountConfig, channel: string): ErrorObject | null {
  return account.plan.channels.includes(channel)
    ? null
    : err(T.permission, 'channel_not_in_plan', `The plan "${account.plan.name}" does not include the ${channel} channel.`, 'channel');
}

function noSender(account: AccountConfig, channel: string): ErrorObject | null {
  const s = Object.hasOwn(account.senders, channel) ? account.senders[channel] : 'none';
  if (s === 'online') return null;
  return err(T.invalid, 'no_sender_available', s === 'offline' ? `Every ${channel} sender is offline; nothing was sent and no credit was spent.` : `No ${channel} sender is connected; nothing was sent and no credit was spent.`, 'channel');
}
