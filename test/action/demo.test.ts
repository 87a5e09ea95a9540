/** `npm start` tells the whole story: happy path, a re-run, a bad row annotated at file:line, the YAML, the inbox. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.ts';

test('npm start: sync, send, re-run, a rejected bad row, the workflow to paste and where to look', async () => {
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(ROOT, 'action', 'scripts', 'demo.ts'), '--no-keep'], { cwd: ROOT, timeout: 120_000 }, (error, out) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
    );
  });
  expect(code).toBe(0);
  expect(stdout).toContain('4 sent (4 replayed: already done by an earlier attempt)');
  expect(stdout).toMatch(/│ ::error title=Messaging Service,file=contacts\.csv,line=3::Contact not imported \(job job_\w+\): validation_failed/);
  expect(stdout).toContain('uses: messaging-service/n8n-nodes-messaging-service/action@v1');
  // --no-keep stops the sandbox, so no link to it is printed (it would answer nothing).
  expect(stdout).not.toMatch(/http:\/\/127\.0\.0\.1:\d+\/\s*$/m);
  expect(stdout).toContain('Inbox: this sandbox stops now; run `npm start` in a terminal (or `npm start -- --keep`)');
  expect(stdout).toContain('0 duplicates');
}, 150000);
