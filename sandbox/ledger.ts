/** The ledger of side effects, and its summary: what tests read to prove "exactly once". */
import type { State } from './state.ts';
import type { DuplicateGroup, Ledger, LedgerSummary } from './types.ts';

export function ledger(state: State): Ledger {
  state.observe();
  return {
    messages: state.messages.rows.map((m) => ({ ...m })),
    jobs: state.jobs.ledgerRows(),
    contacts: state.contacts.rows.map((c) => ({ ...c, attributes: { ...c.attributes }, writes: [...c.writes] })),
    requests: state.requests,
  };
}

export function summary(state: State): LedgerSummary {
  state.observe();
  const messages = state.messages.rows;
  const byKey: Record<string, number> = {};
  const groups = new Map<string, DuplicateGroup>();
  for (const m of messages) {
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
    messages: messages.length,
    messages_by_idempotency_key: byKey,
    duplicates_detected: duplicates.reduce((s, g) => s + g.count - 1, 0),
    duplicates,
    jobs: state.jobs.rows.length,
    contacts: state.contacts.rows.length,
    requests: state.requests,
  };
}
