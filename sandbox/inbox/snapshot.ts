/**
 * What the inbox page shows, as one JSON document: the most recent messages, contacts, jobs and wire
 * events, each key's rate window, and totals. Bounded, so an open page costs the same at any volume.
 * API keys never leave in full: the page is local, but screenshots get shared.
 */
import type { State } from '../state.ts';

const RECENT = 100;
const RECENT_JOBS = 30;

/** `sk_test_…`: enough to tell keys apart, not enough to use one. */
export function maskKey(key: string | null): string | null {
  if (key === null) return null;
  return key.length <= 8 ? '…' : `${key.slice(0, 8)}…`;
}

export function inboxSnapshot(state: State): unknown {
  const now = state.now();
  state.observe(now);
  const messages = state.messages.store;
  const contacts = state.contacts.rows;
  const jobs = state.jobs.rows;
  const limits = new Map(state.config.keys.map((k) => [k.key, state.accounts.get(k.account)]));
  return {
    version: state.version,
    now: new Date(now).toISOString(),
    totals: { messages: messages.total, contacts: contacts.length, jobs: jobs.length, requests: state.requests, events: state.events.total },
    messages: messages.recent(RECENT).map((m) => ({
      id: m.id,
      channel: m.channel,
      to: m.to,
      subject: m.subject,
      body: m.body,
      created_at: m.created_at,
      account: m.account,
      key: maskKey(m.key_id),
      idempotency_key: m.idempotency_key,
    })),
    contacts: contacts.slice(-RECENT).map((c) => ({ id: c.id, first_name: c.first_name, whatsapp: c.whatsapp, email: c.email, attributes: c.attributes, updated_at: c.updated_at, account: c.account })),
    jobs: jobs.slice(-RECENT_JOBS).map((j) => ({ id: j.id, status: j.status, total: j.total, processed: j.processed, failed: j.failed, errors: j.errors.slice(0, 50), created_at: j.created_at, completed_at: j.completed_at, account: j.account })),
    events: state.events.recent(RECENT).map((e) => ({ ...e, key: maskKey(e.key) })),
    rate_windows: state.rates.windows(now).map((w) => {
      const account = limits.get(w.key);
      const limit = account?.rate_limit ?? 0;
      return { key: maskKey(w.key), account: account?.id ?? null, limit, used: w.used, remaining: Math.max(0, limit - w.used), resets_at: new Date(w.reset * 1000).toISOString() };
    }),
  };
}
