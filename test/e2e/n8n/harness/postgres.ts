/**
 * PostgreSQL for n8n (queue mode needs it; SQLite is not supported there): Debian's server binaries
 * found by `command -v` (else `pg_config --bindir`), one throwaway cluster per test file on a free
 * 127.0.0.1 port, its data dir in a temp folder removed afterwards. PostgreSQL refuses to run as root,
 * so under root the cluster belongs to the `postgres` user (Debian's package creates it) and every
 * server command runs through `runuser -u postgres --`. Trust authentication on 127.0.0.1 only: n8n's
 * password is accepted whatever it is.
 */
import { execFileSync } from 'node:child_process';
import { chownSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandPath, requireCommand } from '../../../support/system.ts';
import { freePort } from './paths.ts';
import { removeAtExit, run, spawnTracked, stopChild, tail } from './processes.ts';

export interface PostgresServer {
  host: string;
  port: number;
  database: string;
  user: string;
  /** The settings that point n8n at this cluster. */
  n8nEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** initdb / postgres from PATH, else from `pg_config --bindir` (Debian keeps them in /usr/lib/postgresql/<v>/bin). */
function serverBinary(name: 'initdb' | 'postgres'): string {
  const onPath = commandPath(name);
  if (onPath) return onPath;
  const pgConfig = requireCommand('pg_config', 'postgresql', `n8n on PostgreSQL (${name})`);
  const bindir = execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).trim();
  const candidate = commandPath(name, bindir);
  if (!candidate) throw new Error(`${name} is neither on PATH nor in pg_config's bindir ${bindir}: install Debian's postgresql.`);
  return candidate;
}

/** Under root: run as the `postgres` user (uid/gid from `id`), else as ourselves. */
function unprivileged(): { wrap(cmd: string, args: string[]): [string, string[]]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { wrap: (cmd, args) => [cmd, args] };
  const runuser = requireCommand('runuser', 'util-linux', 'PostgreSQL under root');
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { wrap: (cmd, args) => [runuser, ['-u', 'postgres', '--', cmd, ...args]], uid, gid };
}

/** A fresh cluster on 127.0.0.1:<free port>; resolves once it accepts connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const initdb = serverBinary('initdb');
  const postgres = serverBinary('postgres');
  const as = unprivileged();
  const root = await mkdtemp(join(tmpdir(), 'n8n-pg-'));
  removeAtExit(root);
  if (as.uid !== undefined) chownSync(root, as.uid, as.gid!);
  const data = join(root, 'data');
  const user = 'n8n';
  // initdb's own database: the cluster serves this one n8n and nothing else.
  const database = 'postgres';

  const [initCmd, initArgs] = as.wrap(initdb, ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const init = await run(initCmd, initArgs, { cwd: root, timeoutMs: 120_000 });
  if (init.code !== 0) throw new Error(`initdb failed (${init.code}):\n${tail(init.stdout + init.stderr)}`);

  const port = await freePort();
  // fsync off: a throwaway test cluster; the crashes under test are n8n's, not PostgreSQL's.
  const serverArgs = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', root, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const [cmd, args] = as.wrap(postgres, serverArgs);
  const child = spawnTracked(cmd, args, { cwd: root });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const stop = async (): Promise<void> => {
    await stopChild(child, 10_000);
    await rm(root, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!/database system is ready to accept connections/.test(out)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`postgres did not start on port ${port}:\n${tail(out)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host: '127.0.0.1',
    port,
    database,
    user,
    n8nEnv: {
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(port),
      DB_POSTGRESDB_DATABASE: database,
      DB_POSTGRESDB_USER: user,
      DB_POSTGRESDB_PASSWORD: 'n8n-e2e',
      // n8n pings its database every 2 s and answers 503 "Database is not ready!" after a 5 s ping; a
      // 5,000-item run keeps its event loop busy longer than that on a loaded 2-core machine.
      DB_PING_TIMEOUT_MS: '30000',
    },
    stop,
  };
}
