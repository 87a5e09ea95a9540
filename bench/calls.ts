/** Calls made per operation against the theoretical minimum, and calls against items for the chart. */
import { Agent } from 'undici';
import { countingClient, messages } from './counting-client.ts';
import type { Results, Row } from './results.ts';
import { ratio } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const CHART_ITEMS = [1, 100, 500, 501, 1000, 2500, 5000, 12_345];

export async function measureCalls(): Promise<{ rows: Row[]; chart: Results['charts']['calls'] }> {
  const sb = await startSandboxProcess({ job_rows_per_second: 100_000, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] });
  const dispatcher = new Agent({ connections: 8 });
  const rows: Row[] = [];
  const row = (figure: string, calls: number, minimum: number) => rows.push({ figure, ours: `${calls} calls`, reference: `${minimum} calls`, ratio: ratio(calls, minimum) });
  try {
    const { client, count } = countingClient(sb.url, dispatcher);
    await client.messages.sendBatch(messages(12_345, 'calls'));
    row('calls: 12,345 messages (batch of ≤500)', count('/messages/batch'), Math.ceil(12_345 / 500));
    await client.messages.send({ channel: 'email', to: messages(1_050, 'r').map((m) => m.to), body: 'hello' });
    row('calls: 1,050 recipients (send, ≤100 each)', count('/v1/messages'), Math.ceil(1_050 / 100));
    await client.contacts.importAndWait(Array.from({ length: 3_500 }, (_, i) => ({ email: `c${i}@example.com` })), { timeoutMs: 60_000, minDelayMs: 50 });
    row('calls: 3,500 contacts (bulk jobs of ≤1,000)', count('/contacts/bulk'), Math.ceil(3_500 / 1_000));
    await client.contacts.list().toArray({ max: 10_000 });
    row('calls: list 3,500 contacts (pages of 100)', count('/v1/contacts'), Math.ceil(3_500 / 100));

    const ours: number[] = [];
    for (const n of CHART_ITEMS) {
      const before = count('/messages/batch');
      await client.messages.sendBatch(messages(n, `chart-${n}`));
      ours.push(count('/messages/batch') - before);
    }
    return { rows, chart: { items: CHART_ITEMS, ours, naive: CHART_ITEMS } };
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}
