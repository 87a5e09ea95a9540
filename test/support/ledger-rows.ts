/**
 * Every retained ledger row of an in-process sandbox, read page by page through `control.ledger()`
 * (the sandbox never hands out all rows at once). Same shape as the ledger had before it was paged.
 */
import type { ContactLedgerRow, JobLedgerRow, LedgerPage, LedgerRowKinds, LedgerRows, MessageRow, SandboxControl } from '../../sandbox/server.ts';

export interface LedgerRowsRead {
  messages: MessageRow[];
  jobs: JobLedgerRow[];
  contacts: ContactLedgerRow[];
  /** API requests received (from the last page's totals). */
  requests: number;
}

export function allRows<R extends LedgerRows>(control: SandboxControl, rows: R): LedgerRowKinds[R][] {
  const out: LedgerRowKinds[R][] = [];
  let after: string | null = null;
  do {
    const page: LedgerPage<R> = control.ledger<R>({ rows, after, limit: 1000 });
    out.push(...page.data);
    after = page.next_cursor;
  } while (after !== null);
  return out;
}

export function ledgerRows(sandbox: { control: SandboxControl }): LedgerRowsRead {
  const { control } = sandbox;
  return {
    messages: allRows(control, 'messages'),
    jobs: allRows(control, 'jobs'),
    contacts: allRows(control, 'contacts'),
    requests: control.ledger({ limit: 1 }).totals.requests,
  };
}
