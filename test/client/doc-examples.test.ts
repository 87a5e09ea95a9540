import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Sandbox } from '../../sandbox/server.ts';
import { startSandbox } from './sandbox-client.ts';

/**
 * The TypeScript in README.md and docs/*.md runs as pasted: every ```ts block that imports from
 * `./src` is written out (imports pointed at this checkout's src/), run by Node against a sandbox
 * (MESSAGING_BASE_URL / MESSAGING_API_KEY), and must exit 0.
 */
const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);

function blocks(): [string, string][] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found: [string, string][] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    let n = 0;
    for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      n += 1;
      if (/from '\.\/src\//.test(match[1])) found.push([`${file} block ${n}`, match[1]]);
    }
  }
  return found;
}

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ job_rows_per_second: 5000 });
  dir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const examples = blocks();

test('there are examples to run', () => {
  expect(examples.length).toBeGreaterThanOrEqual(3);
});

test.each(examples)('%s runs against the sandbox', async (name, code) => {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.mts`);
  writeFileSync(file, code.replaceAll("from './src/", `from '${ROOT}/src/`));
  const { stdout } = await run(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', file], {
    env: { ...process.env, MESSAGING_BASE_URL: sandbox.url, MESSAGING_API_KEY: 'sk_test_demo_ok' },
    timeout: 120_000,
  });
  expect(stdout).not.toMatch(/ApiError|TypeError/);
});
