/** `n8n start` (the editor and its REST API) on 127.0.0.1, stopped with its whole process group. */
import type { ChildProcess } from 'node:child_process';
import { n8nBin, type N8nHome } from './home.ts';
import { freePort, nodeBinary } from './paths.ts';
import { spawnTracked, stopChild, tail } from './processes.ts';

export interface N8nServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything n8n printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  port?: number;
  /** Bounds the start (until /healthz/readiness answers). */
  timeoutMs?: number;
  /** Bounds the whole server life (default: none). */
  maxLifetimeMs?: number;
  env?: NodeJS.ProcessEnv;
  echo?: boolean;
  /** n8n CLI command: `start` (default), or `worker` (queue mode; readiness on its own health port). */
  command?: 'start' | 'worker';
}

/** `n8n start` on 127.0.0.1:<port>; resolves once /healthz/readiness answers. */
export async function startN8n(home: N8nHome, opts: StartOptions = {}): Promise<N8nServer> {
  const port = opts.port ?? (await freePort());
  const command = opts.command ?? 'start';
  const portEnv: NodeJS.ProcessEnv =
    command === 'worker'
      ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
      : { N8N_PORT: String(port), N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_URL: `http://127.0.0.1:${port}/` };
  // Two free ports asked for one after the other can be the same one (neither is bound yet): n8n then
  // stops with "Task Broker's port … is already in use" (seen in bench:n8n-scale).
  let brokerPort = await freePort();
  while (brokerPort === port) brokerPort = await freePort();
  const child = spawnTracked(nodeBinary(), [n8nBin(home), command], {
    cwd: home.userFolder,
    env: { ...home.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_SECURE_COOKIE: 'false', ...portEnv, ...opts.env },
  });
  let out = '';
  const onData = (chunk: string): void => {
    out += chunk;
    if (opts.echo) process.stdout.write(chunk);
  };
  child.stdout!.setEncoding('utf8').on('data', onData);
  child.stderr!.setEncoding('utf8').on('data', onData);
  let lifetime: NodeJS.Timeout | undefined;
  if (opts.maxLifetimeMs) {
    lifetime = setTimeout(() => void stopChild(child, 5000), opts.maxLifetimeMs);
    lifetime.unref();
  }
  const server: N8nServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => out,
    async stop() {
      if (lifetime) clearTimeout(lifetime);
      await stopChild(child, 10_000);
    },
  };
  const readiness = `${server.url}/healthz/readiness`;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`n8n ${command} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(out)}`);
    }
    try {
      const res = await fetch(readiness, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return server;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error(`n8n ${command} not ready on ${server.url} within ${timeoutMs} ms:\n${tail(out)}`);
}
