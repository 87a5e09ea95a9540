import { ledgerRows } from '../support/ledger-rows.ts';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Sandbox } from '../../sandbox/server.ts';
import { startSandbox } from './sandbox-client.ts';

/**
 * The TypeScript in README.md and docs/*.md runs as pasted: every ```ts block that imports from
 * `./src` is written out (imports pointed at this checkout's src/), run by Node against a fresh sandbox
 * (MESSAGING_BASE_URL / MESSAGING_API_KEY), and must exit 0, print what its section says it prints,
 * and leave in the sandbox's ledger exactly what it says it does. A new example needs its expectation
 * here: an example without one fails.
 */
const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);

interface Example {
  /** `<file> § <the heading above the block>` */
  name: string;
  code: string;
}

function examples(): Example[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found: Example[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      if (!/from '\.\/src\//.test(match[1]!)) continue;
      const heading = [...text.slice(0, match.index).matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? '(top)';
      found.push({ name: `${file} § ${heading}`, code: match[1]! });
    }
  }
  return found;
}

/** Numbers no default config holds, so the first example's output can only come from this sandbox. */
const ACCOUNT = { id: 'acc_demo', credits: 43_210, rate_limit: 321 };

/** What each example must print (its stdout's lines) and leave in the sandbox. */
const expectations: Record<string, (stdout: string, sandbox: Sandbox) => void> = {
  'docs/client.md § Runtimes': (stdout, sandbox) => {
    expect(stdout).toMatch(/object: 'account'/);
    expect(stdout).toMatch(new RegExp(`id: '${ACCOUNT.id}'`));
    expect(stdout).toMatch(new RegExp(`credits: ${ACCOUNT.credits}\\b`));
    expect(stdout).toMatch(new RegExp(`rate_limit: ${ACCOUNT.rate_limit}\\b`));
    expect(ledgerRows(sandbox).messages).toEqual([]);
  },
  'docs/client.md § Results: sent, failed, unknown, not attempted': (stdout, sandbox) => {
    expect(stdout.trim().split('\n')).toEqual(['1200 sent']);
    const messages = ledgerRows(sandbox).messages;
    expect(messages.map((m) => m.body).sort()).toEqual(Array.from({ length: 1200 }, (_, i) => `Hello ${i}`).sort());
    expect(new Set(messages.map((m) => `${m.channel} ${m.to} ${m.subject}`)).size).toBe(1200);
    expect(messages.every((m) => m.channel === 'email' && m.subject === 'Release 1.4.0')).toBe(true);
    // 1200 in calls of <=500: three chunks, each under its own key derived from the example's.
    expect([...new Set(messages.map((m) => m.idempotency_key))].sort()).toEqual([0, 1, 2].map((n) => expect.stringMatching(new RegExp(`^release-1\\.4\\.0-\\d+:chunk-${n}$`))));
    expect(sandbox.control.summary().duplicates_detected).toBe(0);
  },
  'docs/client.md § Listing and jobs': (stdout, sandbox) => {
    expect(stdout.trim().split('\n')).toEqual(['2 imported', '2 contacts read']);
    const contacts = ledgerRows(sandbox).contacts.map((c) => ({ first_name: c.first_name, email: c.email, whatsapp: c.whatsapp }));
    expect(contacts).toEqual([
      { first_name: 'Ada', email: 'ada@example.com', whatsapp: null },
      { first_name: 'Linus', email: null, whatsapp: '+4915123456789' },
    ]);
    expect(ledgerRows(sandbox).jobs.every((j) => j.completed_at !== null)).toBe(true);
  },
};

let sandbox: Sandbox | undefined;
let dir: string | undefined;
beforeEach(async () => {
  sandbox = await startSandbox({ job_rows_per_second: 5000, accounts: [ACCOUNT] });
  dir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
});
afterEach(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const found = examples();

test('every example found has an expectation, and every expectation an example', () => {
  expect(found.map((e) => e.name).sort()).toEqual(Object.keys(expectations).sort());
});

test.each(found.map((e) => [e.name, e.code]))('%s runs against the sandbox and does what it says', async (name, code) => {
  const file = join(dir!, `${name.replace(/\W+/g, '-')}.mts`);
  writeFileSync(file, code.replaceAll("from './src/", `from '${ROOT}/src/`));
  const { stdout } = await run(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', file], {
    env: { ...process.env, MESSAGING_BASE_URL: sandbox!.url, MESSAGING_API_KEY: 'sk_test_demo_ok' },
    timeout: 120_000,
  });
  const expectation = expectations[name];
  if (!expectation) throw new Error(`${name} has no expectation in test/client/doc-examples.test.ts`);
  expectation(stdout, sandbox!);
});
