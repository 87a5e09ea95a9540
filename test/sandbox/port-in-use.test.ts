/** A port already taken (a sandbox left running on 4010, say) is told in words, with what to do, not as a bare EADDRINUSE. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { start } from '../../sandbox/server.ts';

test('start() on a taken port rejects with EADDRINUSE and a message naming the port and the way out', async () => {
  const first = await start({ port: 0 });
  try {
    const port = Number(new URL(first.origin).port);
    await expect(start({ port })).rejects.toMatchObject({ code: 'EADDRINUSE', message: `127.0.0.1:${port} is already in use, probably by another sandbox (npm run sandbox, npm start or npm run n8n). Stop it, or choose another port.` });
  } finally {
    await first.close();
  }
});

test('npm run sandbox on a taken port exits 1 and says which flag picks another', async () => {
  const first = await start({ port: 0 });
  try {
    const port = new URL(first.origin).port;
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', port], { cwd: join(__dirname, '..', '..'), timeout: 30_000 }, (error, _out, err) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: err }),
      );
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`sandbox: 127.0.0.1:${port} is already in use, probably by another sandbox`);
    expect(stderr).toContain('Here: --port <n>.');
    expect(stderr).not.toContain('    at ');
  } finally {
    await first.close();
  }
});
