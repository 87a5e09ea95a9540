/**
 * Throughput at a rate ceiling, one process: our client against ceiling × 500 messages per window,
 * beside a naive sender that ignores the headers and only reacts to 429s. Both run in this process run.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { countingClient, KEY, messages } from './counting-client.ts';
import type { Point, Results, Row } from './results.ts';
import { ratio } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const WINDOW_S = 2;
const CEILING = 10;
const WINDOWS = 6;

/** Waits until just after the next window boundary (sandbox windows are aligned to unix time). */
async function alignToWindow(): Promise<number> {
  const next = Math.ceil(Date.now() / (WINDOW_S * 1000)) * WINDOW_S * 1000 + 5;
  await sleep(next - Date.now());
  return next;
}

/** Share of the ceiling reached: the windows used, against the time until the last window's end. */
function shareOfCeiling(sentAt: number[], t0: number): number {
  const lastWindowStart = sentAt[(WINDOWS - 1) * CEILING]!;
  return ratio(WINDOWS * WINDOW_S * 1000, lastWindowStart - t0 + WINDOW_S * 1000);
}

/** Cumulative messages accepted against seconds since the start. */
function timeline(sentAt: number[], t0: number): Point[] {
  return [[0, 0], ...sentAt.map((at, i): Point => [Math.round(at - t0) / 1000, (i + 1) * 500])];
}

export async function measureThroughput(): Promise<{ rows: Row[]; chart: Results['charts']['throughput'] }> {
  const sb = await startSandboxProcess({ window_seconds: WINDOW_S, job_rows_per_second: 0, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: CEILING }] });
  const dispatcher = new Agent({ connections: 8 });
  const perSecond = (CEILING * 500) / WINDOW_S;
  try {
    const { client, wire } = countingClient(sb.url, dispatcher);
    await alignToWindow();
    await client.account.get(); // learn the window from the headers, as any first call would
    const t0 = await alignToWindow();
    wire.length = 0;
    await client.messages.sendBatch(messages(WINDOWS * CEILING * 500, 'tp'));
    const ours = wire.filter((w) => w.path.endsWith('/messages/batch') && w.status === 200).map((w) => w.sentAt);
    const ours429 = wire.filter((w) => w.status === 429).length;

    const t1 = await alignToWindow();
    const naive: number[] = [];
    let naive429 = 0;
    const batch = JSON.stringify({ messages: messages(500, 'naive') });
    while (naive.length < WINDOWS * CEILING) {
      const at = Date.now();
      const res = await request(`${sb.url}/messages/batch`, { method: 'POST', dispatcher, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: batch });
      await res.body.text();
      if (res.statusCode === 429) {
        naive429 += 1;
        await sleep(Number(res.headers['retry-after']) * 1000);
      } else naive.push(at);
    }
    const rate = (share: number) => `${Math.round(share * perSecond)} msg/s`;
    const oursShare = shareOfCeiling(ours, t0);
    const naiveShare = shareOfCeiling(naive, t1);
    return {
      rows: [
        { figure: `throughput at ${CEILING} calls/${WINDOW_S} s, one process (429s: ${ours429})`, ours: rate(oursShare), reference: `${perSecond} msg/s (ceiling × 500)`, ratio: oursShare },
        { figure: `  naive sender, reacting to 429s only (429s: ${naive429})`, ours: rate(naiveShare), reference: `${perSecond} msg/s (ceiling × 500)`, ratio: naiveShare },
      ],
      chart: { ceilingPerSecond: perSecond, ours: timeline(ours, t0), naive: timeline(naive, t1) },
    };
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}
