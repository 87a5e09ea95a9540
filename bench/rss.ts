/** RSS growth while paging 100,000 contacts: our client's iterator against bare undici, each in a fresh process. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { KEY } from './counting-client.ts';
import type { Row } from './results.ts';
import { ratio } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const CONTACTS = 100_000;
const RUNS = 5;
const run = promisify(execFile);

async function seed(url: string): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  for (let job = 0; job < CONTACTS / 1000; job++) {
    const contacts = Array.from({ length: 1000 }, (_, i) => ({ first_name: `P${job * 1000 + i}`, email: `p${job * 1000 + i}@example.com` }));
    const res = await request(`${url}/contacts/bulk`, { method: 'POST', headers, body: JSON.stringify({ contacts }) });
    await res.body.text();
    if (res.statusCode !== 202) throw new Error(`seeding contacts: HTTP ${res.statusCode}`);
  }
}

async function pager(mode: 'ours' | 'undici', url: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'bench/rss-pager.ts', mode, url], { maxBuffer: 1 << 20 });
  const out = JSON.parse(stdout) as { seen: number; growthBytes: number };
  if (out.seen !== CONTACTS) throw new Error(`${mode} pager saw ${out.seen} contacts, not ${CONTACTS}`);
  return out.growthBytes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureRssGrowth(): Promise<Row[]> {
  const sb = await startSandboxProcess({ job_rows_per_second: 1e9, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] });
  try {
    await seed(sb.url);
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await pager('ours', sb.url));
      bare.push(await pager('undici', sb.url));
    }
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    return [{ figure: `RSS growth paging ${CONTACTS.toLocaleString('en-US')} contacts (median of ${RUNS} fresh processes)`, ours: mb(median(ours)), reference: `${mb(median(bare))} bare undici`, ratio: ratio(median(ours), median(bare)) }];
  } finally {
    sb.child.kill();
  }
}
