/**
 * Where things are: the repo root (CommonJS-compatible: no import.meta, no __dirname — found by walking
 * up from process.cwd(), or MSGSVC_REPO_ROOT), Node 24 to run n8n with, and free local ports.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

let repoRootCache: string | undefined;

/** The repo root: MSGSVC_REPO_ROOT, or the first dir up from cwd that holds test/e2e/n8n/setup-host.sh. */
export function repoRoot(): string {
  if (repoRootCache) return repoRootCache;
  const fromEnv = process.env.MSGSVC_REPO_ROOT;
  if (fromEnv) return (repoRootCache = resolve(fromEnv));
  let dir = process.cwd();
  for (;;) {
    if (existsSync(join(dir, 'test', 'e2e', 'n8n', 'setup-host.sh'))) return (repoRootCache = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`n8n-harness: cannot find the repo root from ${process.cwd()} (set MSGSVC_REPO_ROOT)`);
    dir = up;
  }
}

/** Node ≥ 24 to run n8n with: the repo's npm `node` package, else this process if it is ≥ 24. */
export function nodeBinary(): string {
  const local = join(repoRoot(), 'node_modules', '.bin', 'node');
  if (existsSync(local)) return local;
  if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
  throw new Error('n8n-harness: no Node 24 (run `npm ci` at the repo root)');
}

/** PATH with the repo's node_modules/.bin first (so `#!/usr/bin/env node` finds Node 24). */
export function pathWithRepoBin(): string {
  return [join(repoRoot(), 'node_modules', '.bin'), process.env.PATH ?? ''].join(':');
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, rejectPort) => {
    const server = createServer();
    server.unref();
    server.on('error', rejectPort);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}
