/**
 * Redis for n8n's queue mode: Debian's `redis-server` from PATH (.ci/run installs it; a missing one
 * fails loudly), one throwaway instance per test file on a free 127.0.0.1 port, no persistence.
 */
import { requireCommand } from '../../../support/system.ts';
import { freePort } from './paths.ts';
import { spawnTracked, stopChild, tail } from './processes.ts';

export interface RedisServer {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts redis-server on 127.0.0.1:<free port> without persistence; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const binary = requireCommand('redis-server', 'redis-server', "n8n's queue mode");
  const port = await freePort();
  const child = spawnTracked(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {});
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const deadline = Date.now() + 30_000;
  while (!/Ready to accept connections/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopChild(child, 2000);
      throw new Error(`redis-server did not start on port ${port}:\n${tail(out)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { host: '127.0.0.1', port, stop: () => stopChild(child, 5000) };
}
