/**
 * Harness for end-to-end tests inside a REAL n8n (2.41.1, Node 24). One entry point re-exporting the
 * modules under harness/, one concern each:
 *   paths.ts      repo root, Node 24, free ports
 *   processes.ts  child processes in their own process groups, killed on timeout, stop and exit
 *   host.ts       the cached n8n host (setup-host.sh), `npm pack`, installing a package as n8n does
 *   home.ts       an N8N_USER_FOLDER with the package; `n8n import:*` (secret inputs 0600, removed)
 *   execute.ts    `n8n execute --rawOutput` and reading its run
 *   workflows.ts  building workflows
 *   server.ts     `n8n start` / `n8n worker`
 *   rest.ts       the REST API the editor uses (login, workflows, executions, retry)
 *   redis.ts      redis-server for queue mode
 *   postgres.ts   a throwaway PostgreSQL cluster for n8n (DB_TYPE=postgresdb)
 *   queue-cluster.ts  PostgreSQL + Redis + main + two workers, signed in
 *   crash.ts      kill -9 of an n8n at a state the test waits for
 *   messaging-package.ts  this repo's package, built and packed
 *   packaged-n8n.ts  the shared suite set-up: sandbox, package in a fresh home, the sandbox credential
 */
export { freePort, nodeBinary, repoRoot } from './harness/paths.ts';
export { killAll, run, type RunOptions, type RunResult } from './harness/processes.ts';
export { ensureHost, installPackageTarball, packPackage, readTarballManifest } from './harness/host.ts';
export {
  createN8nHome,
  importCredentials,
  importWorkflow,
  n8n,
  N8nCommandError,
  withPrivateInputFile,
  type CreateHomeOptions,
  type N8nCredential,
  type N8nHome,
} from './harness/home.ts';
export { executeWorkflow, outputItems, parseRunOutput, stopwatch, type ExecuteResult } from './harness/execute.ts';
export { manualWorkflow, type ChainNode, type N8nWorkflow } from './harness/workflows.ts';
export { startN8n, type N8nServer, type StartOptions } from './harness/server.ts';
export { executionHints, executionItems, N8nRest, N8nRestError, ownerEnv, type ExecutionSummary, type OwnerLogin } from './harness/rest.ts';
export { startRedis, type RedisServer } from './harness/redis.ts';
export { startPostgres, type PostgresServer } from './harness/postgres.ts';
export { killHard, waitUntil } from './harness/crash.ts';
export { startQueueCluster, type QueueCluster } from './harness/queue-cluster.ts';
export { buildAndPackMessagingPackage, MESSAGING_PACKAGE } from './harness/messaging-package.ts';
export { sandboxCredential, usePackagedN8n, type PackagedN8n } from './harness/packaged-n8n.ts';
