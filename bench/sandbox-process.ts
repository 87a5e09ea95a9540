/** Starts the sandbox as a child process, so a benchmark's own CPU figures exclude the server's. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxConfigInput } from '../sandbox/server.ts';

export async function startSandboxProcess(config: SandboxConfigInput): Promise<{ origin: string; url: string; child: ChildProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(process.cwd(), 'sandbox', 'cli.ts'), '--port', '0', '--config', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 15000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening: (http:\/\/\S+)\/v1/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    child.on('exit', (c) => reject(new Error(`sandbox exited with ${c}: ${out}`)));
  });
  return { origin, url: `${origin}/v1`, child };
}
