/**
 * n8n in queue mode as the queue-mode suites run it: PostgreSQL (the database n8n supports for queue
 * mode) and Redis, one home with our package and the given credentials, the main (it migrates the
 * database, so it starts first) and two workers, and a signed-in REST client on the main.
 */
import { createN8nHome, importCredentials, type N8nCredential, type N8nHome } from './home.ts';
import { MESSAGING_PACKAGE } from './messaging-package.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { startRedis, type RedisServer } from './redis.ts';
import { N8nRest, ownerEnv } from './rest.ts';
import { startN8n, type N8nServer } from './server.ts';

const START_TIMEOUT_MS = 3 * 60_000;

export interface QueueCluster {
  home: N8nHome;
  main: N8nServer;
  workers: N8nServer[];
  rest: N8nRest;
  /** Stops the n8n processes, Redis and PostgreSQL, and removes the home. */
  stop(): Promise<void>;
}

export interface QueueClusterOptions {
  tarball: string;
  owner: { email: string; password: string };
  credentials: N8nCredential[];
  /** n8n settings beside the queue's own (e.g. shorter stall detection). */
  env?: NodeJS.ProcessEnv;
}

export async function startQueueCluster(options: QueueClusterOptions): Promise<QueueCluster> {
  let pg: PostgresServer | undefined;
  let redis: RedisServer | undefined;
  let home: N8nHome | undefined;
  const servers: N8nServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all([redis?.stop(), pg?.stop()]);
    await home?.cleanup();
  };
  try {
    [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
    home = await createN8nHome({
      packageTarball: options.tarball,
      packageName: MESSAGING_PACKAGE,
      env: { ...pg.n8nEnv, EXECUTIONS_MODE: 'queue', QUEUE_BULL_REDIS_HOST: redis.host, QUEUE_BULL_REDIS_PORT: String(redis.port), ...options.env },
    });
    await importCredentials(home, options.credentials);
    const main = await startN8n(home, { env: ownerEnv(home, options.owner), timeoutMs: START_TIMEOUT_MS });
    servers.push(main);
    const workers = await Promise.all([1, 2].map(() => startN8n(home!, { command: 'worker', timeoutMs: START_TIMEOUT_MS })));
    servers.push(...workers);
    const rest = new N8nRest(main.url, home);
    await rest.login(options.owner);
    return { home, main, workers, rest, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
