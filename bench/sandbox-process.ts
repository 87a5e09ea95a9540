/** Starts the sandbox as a child process, so a benchmark's own CPU figures exclude the server's. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxConfigInput } from '../sandbox/server.ts';

export interface SandboxProcess {
  origin: string;
  url: string;
  /** The child's control token, read from its banner (send as `x-sandbox-token` on control writes). */
  controlToken: string;
  child: ChildProcess;
}

export async function startSandboxProcess(config: SandboxConfigInput): Promise<SandboxProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(process.cwd(), 'sandbox', 'cli.ts'), '--port', '0', '--config', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The child reads its config once, at start: the folder goes as soon as it is up (or failed).
  const banner = await new Promise<{ origin: string; controlToken: string }>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 15000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const origin = /listening: (http:\/\/\S+)\/v1/.exec(out);
      const token = /Control token: (\S+)/.exec(out);
      if (origin && token) {
        clearTimeout(t);
        resolve({ origin: origin[1]!, controlToken: token[1]! });
      }
    });
    child.on('exit', (c) => reject(new Error(`sandbox exited with ${c}: ${out}`)));
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  return { ...banner, url: `${banner.origin}/v1`, child };
}
