/**
 * Redis for n8n's queue mode: Debian's `redis-server` (installed with apt-get when missing), one
 * throwaway instance per test file on a free 127.0.0.1 port, no persistence.
 */
import { existsSync } from 'node:fs';
import { freePort } from './paths.ts';
import { run, spawnTracked, stopChild, tail } from './processes.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

/** The redis-server binary; installs Debian's package when it is missing (needs root or sudo). */
export async function ensureRedis(): Promise<string> {
  if (existsSync(REDIS_SERVER)) return REDIS_SERVER;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['apt-get', 'update'], ['apt-get', 'install', '-y', '--no-install-recommends', 'redis-server']]) {
    const [command, ...rest] = [...sudo, ...args];
    const result = await run(command!, rest, { env, timeoutMs: 10 * 60_000 });
    if (result.code !== 0) throw new Error(`${args.join(' ')} failed (exit ${result.code}):\n${tail(result.stderr)}`);
  }
  if (!existsSync(REDIS_SERVER)) throw new Error(`apt-get installed redis-server but ${REDIS_SERVER} is missing`);
  return REDIS_SERVER;
}

export interface RedisServer {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts redis-server on 127.0.0.1:<free port> without persistence; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const binary = await ensureRedis();
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
