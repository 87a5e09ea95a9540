/**
 * An n8n home (N8N_USER_FOLDER with the package installed) and the n8n CLI commands run against it:
 * `n8n <args>`, `import:credentials`, `import:workflow`. Inputs that may hold secrets are written only
 * into a 0700 dir as 0600 files and removed as soon as n8n has read them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureHost, installPackageTarball, readTarballManifest } from './host.ts';
import { freePort, nodeBinary, pathWithRepoBin } from './paths.ts';
import { run, tail, type RunResult } from './processes.ts';
import type { N8nWorkflow } from './workflows.ts';

export interface N8nHome {
  /** The temp (or given) root that holds everything of this home. */
  root: string;
  /** N8N_USER_FOLDER (n8n keeps its data in `<userFolder>/.n8n`). */
  userFolder: string;
  /** `<userFolder>/.n8n/nodes` — n8n's community-package dir. */
  nodesDir: string;
  /** Where the package was unpacked: `<nodesDir>/node_modules/<packageName>`. */
  packageDir: string;
  packageName: string;
  encryptionKey: string;
  /** The n8n host dir (from ensureHost). */
  hostDir: string;
  /** Environment every n8n command of this home runs with (already includes process.env). */
  env: NodeJS.ProcessEnv;
  /** Removes the home (unless created with `keep: true`). */
  cleanup(): Promise<void>;
}

export interface N8nCredential {
  id: string;
  name: string;
  type: string;
  /** Plain object: n8n encrypts it on import. */
  data: Record<string, unknown>;
  [key: string]: unknown;
}

export class N8nCommandError extends Error {
  readonly result: RunResult;
  readonly args: string[];
  constructor(message: string, args: string[], result: RunResult) {
    super(message);
    this.name = 'N8nCommandError';
    this.args = args;
    this.result = result;
  }
}

export interface CreateHomeOptions {
  /** An `npm pack` tarball of the community package. */
  packageTarball: string;
  /** Its package name (n8n node types are `<packageName>.<node name>`); read from the tarball if omitted. */
  packageName?: string;
  /** Use this dir (created if missing, kept) instead of a fresh temp dir. */
  userFolder?: string;
  encryptionKey?: string;
  /** Extra env for every n8n command of this home. */
  env?: NodeJS.ProcessEnv;
  /** Keep the dir on cleanup(). Default: false for temp homes, true for a given userFolder. */
  keep?: boolean;
}

/** Settings a caller's shell must not leak into a test's n8n (only N8N_LOG_LEVEL is honoured). */
const HOST_SETTINGS = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_FUNCTION_ALLOW_|NODES_)/;

export async function createN8nHome(opts: CreateHomeOptions): Promise<N8nHome> {
  const hostDir = await ensureHost();
  const root = opts.userFolder ? resolve(opts.userFolder) : await mkdtemp(join(tmpdir(), 'n8n-e2e-'));
  const keep = opts.keep ?? Boolean(opts.userFolder);
  const userFolder = root;
  const nodesDir = join(userFolder, '.n8n', 'nodes');
  let packageName: string;
  let packageDir: string;
  try {
    await mkdir(nodesDir, { recursive: true });
    packageName = opts.packageName ?? (await readTarballManifest(opts.packageTarball)).name;
    packageDir = await installPackageTarball(nodesDir, opts.packageTarball, packageName);
  } catch (error) {
    // No home to hand back, so no cleanup() to call: remove what was made here.
    if (!keep) await rm(root, { recursive: true, force: true });
    throw error;
  }
  // n8n keeps the key in <userFolder>/.n8n/config; an existing home must reuse it.
  let encryptionKey = opts.encryptionKey;
  if (!encryptionKey) {
    try {
      encryptionKey = (JSON.parse(readFileSync(join(userFolder, '.n8n', 'config'), 'utf8')) as { encryptionKey?: string }).encryptionKey;
    } catch {
      /* fresh home */
    }
  }
  encryptionKey ??= randomBytes(24).toString('hex');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !HOST_SETTINGS.test(k)));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PATH: pathWithRepoBin(),
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: encryptionKey,
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
    N8N_LOG_OUTPUT: 'console',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_SSRF_PROTECTION_ENABLED: 'false',
    N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
    N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
    N8N_REINSTALL_MISSING_PACKAGES: 'false',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    DB_TYPE: 'sqlite',
    NODE_ENV: 'production',
    ...opts.env,
  };
  // Do not let a parent Jest/ts-node leak into n8n.
  delete env.NODE_OPTIONS;
  delete env.JEST_WORKER_ID;
  return {
    root,
    userFolder,
    nodesDir,
    packageDir,
    packageName,
    encryptionKey,
    hostDir,
    env,
    async cleanup() {
      if (!keep) await rm(root, { recursive: true, force: true });
    },
  };
}

/** The path of n8n's CLI inside a home's host. */
export function n8nBin(home: N8nHome): string {
  return join(home.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/** Runs `n8n <args>` for a home, with Node 24 and the home's env. Throws N8nCommandError on failure. */
export async function n8n(home: N8nHome, args: string[], opts: { timeoutMs?: number; allowFailure?: boolean } = {}): Promise<RunResult> {
  // A fresh task-broker port per command (n8n starts its task broker even for `execute`/`import`):
  // a port held across many commands could be taken meanwhile by another process's ephemeral port.
  const result = await run(nodeBinary(), [n8nBin(home), ...args], {
    cwd: home.userFolder,
    env: { ...home.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
  if (!opts.allowFailure && (result.code !== 0 || result.timedOut)) {
    throw new N8nCommandError(
      `n8n ${args.join(' ')} ${result.timedOut ? `timed out after ${result.durationMs} ms` : `exited ${result.code}`}:\n` +
        `--- stderr ---\n${tail(result.stderr)}\n--- stdout ---\n${tail(result.stdout)}`,
      args,
      result,
    );
  }
  return result;
}

/**
 * Writes `data` as JSON to a file only the owner can read (0600 in a 0700 dir, created exclusively so
 * no earlier file's mode is inherited), runs `use(file)`, and removes the file whatever happens.
 */
export async function withPrivateInputFile<T>(home: Pick<N8nHome, 'root'>, name: string, data: unknown, use: (file: string) => Promise<T>): Promise<T> {
  const dir = join(home.root, '.harness-input');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${name}-${Date.now()}-${randomBytes(6).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(data, null, 2), { mode: 0o600, flag: 'wx' });
  try {
    return await use(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** `n8n import:credentials`: `data` is given in plain text and encrypted by n8n on import. */
export async function importCredentials(home: N8nHome, creds: N8nCredential[]): Promise<RunResult> {
  return withPrivateInputFile(home, 'credentials', creds, (file) => n8n(home, ['import:credentials', `--input=${file}`]));
}

/** `n8n import:workflow` of one workflow (or several). */
export async function importWorkflow(home: N8nHome, wf: N8nWorkflow | N8nWorkflow[]): Promise<RunResult> {
  const list = Array.isArray(wf) ? wf : [wf];
  for (const w of list) {
    if (!w.id || w.id.length > 21) throw new Error(`workflow id must be 1..21 chars, got ${JSON.stringify(w.id)}`);
  }
  const workflows = list.map((w) => ({ active: false, settings: {}, ...w }));
  return withPrivateInputFile(home, 'workflow', workflows, (file) => n8n(home, ['import:workflow', `--input=${file}`]));
}
