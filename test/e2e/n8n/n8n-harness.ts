/**
 * Harness for end-to-end tests inside a REAL n8n (2.41.1, Node 24), driven through its CLI:
 *   ensureHost()        -> installs/reuses the cached n8n host (setup-host.sh), returns its dir
 *   packPackage(dir)    -> `npm pack` of a community package, returns the tarball path
 *   createN8nHome(...)  -> a temp N8N_USER_FOLDER with the package installed as n8n's installer would
 *   importCredentials / importWorkflow / executeWorkflow -> `n8n import:* / execute --rawOutput`
 *   startN8n(home, { port }) -> `n8n start` on 127.0.0.1 (the editor), stop() to end it
 * Every spawned process has a timeout, runs in its own process group, and is killed at stop/exit.
 *
 * CommonJS-compatible TypeScript (no import.meta, no __dirname): the repo root is found by walking up
 * from process.cwd() (or RELAY_REPO_ROOT).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

// ---------------------------------------------------------------------------------------------
// Types

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

export interface N8nWorkflow {
  /** ≤ 21 characters (n8n's nanoid-sized ids). */
  id: string;
  name: string;
  nodes: Array<Record<string, unknown>>;
  connections: Record<string, unknown>;
  active?: boolean;
  settings?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

export interface ExecuteResult {
  /** `raw.data.resultData.runData`: node name -> task data array (see outputItems). */
  runData: Record<string, any[]>;
  /** The whole run object n8n printed (IRun: data, mode, status, startedAt, stoppedAt, …). */
  raw: any;
  /** `raw.status`: 'success' | 'error' | … */
  status: string | undefined;
  /** `raw.data.resultData.error` (serialized NodeApiError / NodeOperationError), when the run failed. */
  error: any;
  /** n8n's exit code (1 when the workflow failed; null when it died by a signal). */
  code: number | null;
  signal: NodeJS.Signals | null;
  /**
   * n8n printed the complete run and then died by a signal (seen: SIGSEGV in ~10% of `execute` runs,
   * at exit, from the isolated-vm expression engine under Node 24). The run is still the truth.
   */
  crashedAtExit: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
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

// ---------------------------------------------------------------------------------------------
// Paths

let repoRootCache: string | undefined;

/** The repo root: RELAY_REPO_ROOT, or the first dir up from cwd that holds test/e2e/n8n/setup-host.sh. */
export function repoRoot(): string {
  if (repoRootCache) return repoRootCache;
  const fromEnv = process.env.RELAY_REPO_ROOT;
  if (fromEnv) return (repoRootCache = resolve(fromEnv));
  let dir = process.cwd();
  for (;;) {
    if (existsSync(join(dir, 'test', 'e2e', 'n8n', 'setup-host.sh'))) return (repoRootCache = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`n8n-harness: cannot find the repo root from ${process.cwd()} (set RELAY_REPO_ROOT)`);
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
function pathWithRepoBin(): string {
  return [join(repoRoot(), 'node_modules', '.bin'), process.env.PATH ?? ''].join(':');
}

// ---------------------------------------------------------------------------------------------
// Processes

const live = new Set<ChildProcess>();
/** Temp dirs the harness made on its own (packPackage without destDir): removed at process exit. */
const ownedTemp = new Set<string>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the whole group: n8n starts task runners as children
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
    for (const dir of ownedTemp) rmSync(dir, { recursive: true, force: true });
  });
}

/** Kills every process this harness started that is still running (call from afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...live].map((child) => stopChild(child, 5000));
  await Promise.all(waits);
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const done = (): void => {
      clearTimeout(hard);
      resolveStop();
    };
    child.once('exit', done);
    killGroup(child, 'SIGTERM');
    const hard = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      setTimeout(resolveStop, 1000).unref();
    }, graceMs);
    hard.unref();
  });
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Receives output as it arrives (e.g. to echo it when debugging). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

/** Runs a command to completion with a hard timeout (SIGTERM, then SIGKILL of its process group). */
export function run(command: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  installExitHook();
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const started = Date.now();
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group, so a timeout kills n8n's children too
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      opts.onOutput?.(chunk, 'stdout');
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      opts.onOutput?.(chunk, 'stderr');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      void stopChild(child, 5000);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      live.delete(child);
      rejectRun(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolveRun({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Host

let hostPromise: Promise<string> | undefined;

/**
 * Installs (first time: minutes, ~2 GB) or reuses the cached n8n host; resolves to its dir.
 * N8N_HOST_DIR skips the script and uses that dir as is.
 */
export function ensureHost(opts: { timeoutMs?: number; verbose?: boolean } = {}): Promise<string> {
  if (process.env.N8N_HOST_DIR) return Promise.resolve(resolve(process.env.N8N_HOST_DIR));
  hostPromise ??= (async () => {
    const script = join(repoRoot(), 'test', 'e2e', 'n8n', 'setup-host.sh');
    const result = await run('bash', [script], {
      cwd: repoRoot(),
      timeoutMs: opts.timeoutMs ?? 20 * 60_000,
      onOutput: opts.verbose ? (chunk) => process.stderr.write(chunk) : undefined,
    });
    const lines = result.stdout.trim().split('\n');
    const dir = lines[lines.length - 1]?.trim() ?? '';
    if (result.code !== 0 || !dir || !existsSync(join(dir, 'node_modules', 'n8n', 'bin', 'n8n'))) {
      hostPromise = undefined;
      throw new Error(
        `setup-host.sh failed (exit ${result.code}${result.timedOut ? ', timed out' : ''}):\n${tail(result.stderr)}`,
      );
    }
    return dir;
  })();
  return hostPromise;
}

// ---------------------------------------------------------------------------------------------
// Packages

/**
 * `npm pack --ignore-scripts` of a package dir into destDir; resolves to the tarball path. Without
 * destDir: a temp dir that is removed when this process exits.
 */
export async function packPackage(packageDir: string, destDir?: string): Promise<string> {
  installExitHook();
  let dest = destDir;
  if (!dest) {
    dest = await mkdtemp(join(tmpdir(), 'n8n-pack-'));
    ownedTemp.add(dest); // removed when this process exits
  }
  await mkdir(dest, { recursive: true });
  const result = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: packageDir,
    env: { ...process.env, PATH: pathWithRepoBin() },
    timeoutMs: 120_000,
  });
  if (result.code !== 0) throw new Error(`npm pack failed in ${packageDir}:\n${tail(result.stderr)}`);
  const start = result.stdout.indexOf('[');
  const info = JSON.parse(result.stdout.slice(start)) as Array<{ filename: string }>;
  return join(dest, info[0]!.filename);
}

/** n8n loads only `<nodes>/node_modules/n8n-nodes-…` and `@scope/n8n-nodes-…` (n8n-core scanDirectoryForPackages). */
const LOADABLE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?n8n-nodes-[a-z0-9._-]*$/;

/**
 * Installs an `npm pack` tarball into `<nodesDir>/node_modules/<packageName>` exactly as n8n 2.41's
 * CommunityPackagesService.downloadPackage does: `tar -xzf <tgz> -C <dir> --strip-components=1`; drop
 * devDependencies/peerDependencies/optionalDependencies from the unpacked package.json; `npm install`
 * its runtime dependencies inside it (none for a verified package: skipped then); record
 * `<name>: <version>` in `<nodesDir>/package.json` ("installed-nodes").
 * n8n itself does not need that package.json to load the package (it scans the directory and makes
 * `n8n-workflow` resolvable through NODE_PATH); it is written to mirror a real install.
 */
export async function installPackageTarball(nodesDir: string, packageTarball: string, packageName: string): Promise<string> {
  if (!LOADABLE_NAME.test(packageName)) {
    throw new Error(`n8n only loads packages named n8n-nodes-* or @scope/n8n-nodes-*; ${packageName} would be ignored`);
  }
  const packageDir = join(nodesDir, 'node_modules', ...packageName.split('/'));
  await rm(packageDir, { recursive: true, force: true });
  await mkdir(packageDir, { recursive: true });
  const untar = await run('tar', ['-xzf', resolve(packageTarball), '-C', packageDir, '--strip-components=1'], {
    timeoutMs: 60_000,
  });
  if (untar.code !== 0) throw new Error(`tar -xzf ${packageTarball} failed:\n${tail(untar.stderr)}`);
  const manifestPath = join(packageDir, 'package.json');
  const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
    await readFile(manifestPath, 'utf8'),
  ) as Record<string, any>;
  void devDependencies;
  void peerDependencies;
  void optionalDependencies;
  if (manifest.name !== packageName) {
    throw new Error(`tarball holds package ${manifest.name}, expected ${packageName}`);
  }
  if (!manifest.n8n) throw new Error(`${packageName}'s package.json has no "n8n" section: n8n would not load it`);
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
    const install = await run(
      'npm',
      ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
      { cwd: packageDir, env: { ...process.env, PATH: pathWithRepoBin() }, timeoutMs: 300_000 },
    );
    if (install.code !== 0) throw new Error(`npm install of ${packageName}'s dependencies failed:\n${tail(install.stderr)}`);
  }
  const nodesPkgPath = join(nodesDir, 'package.json');
  let nodesPkg: { name?: string; private?: boolean; dependencies?: Record<string, string> };
  try {
    nodesPkg = JSON.parse(await readFile(nodesPkgPath, 'utf8'));
  } catch {
    nodesPkg = { name: 'installed-nodes', private: true };
  }
  nodesPkg.dependencies = { ...(nodesPkg.dependencies ?? {}), [packageName]: String(manifest.version ?? '*') };
  await writeFile(nodesPkgPath, JSON.stringify(nodesPkg, null, 2));
  return packageDir;
}

/** Reads `package/package.json` from an `npm pack` tarball (e.g. to learn the package name). */
export async function readTarballManifest(packageTarball: string): Promise<{ name: string; version: string; [key: string]: unknown }> {
  const result = await run('tar', ['-xzOf', resolve(packageTarball), 'package/package.json'], { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`cannot read package/package.json from ${packageTarball}:\n${tail(result.stderr)}`);
  return JSON.parse(result.stdout);
}

// ---------------------------------------------------------------------------------------------
// Homes

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

export async function createN8nHome(opts: CreateHomeOptions): Promise<N8nHome> {
  const hostDir = await ensureHost();
  const root = opts.userFolder ? resolve(opts.userFolder) : await mkdtemp(join(tmpdir(), 'n8n-e2e-'));
  const userFolder = root;
  const nodesDir = join(userFolder, '.n8n', 'nodes');
  await mkdir(nodesDir, { recursive: true });
  const packageName = opts.packageName ?? (await readTarballManifest(opts.packageTarball)).name;
  const packageDir = await installPackageTarball(nodesDir, opts.packageTarball, packageName);
  // n8n keeps the key in <userFolder>/.n8n/config; an existing home must reuse it.
  let encryptionKey = opts.encryptionKey;
  if (!encryptionKey) {
    try {
      const config = JSON.parse(readFileSync(join(userFolder, '.n8n', 'config'), 'utf8')) as { encryptionKey?: string };
      encryptionKey = config.encryptionKey;
    } catch {
      /* fresh home */
    }
  }
  encryptionKey ??= randomBytes(24).toString('hex');
  const brokerPort = await freePort();
  // Hermetic: no N8N_*/DB_*/queue settings inherited from the caller's shell (only N8N_LOG_LEVEL).
  const inherited: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_FUNCTION_ALLOW_|NODES_)/.test(k)) continue;
    inherited[k] = v;
  }
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
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    DB_TYPE: 'sqlite',
    NODE_ENV: 'production',
    ...opts.env,
  };
  // Do not let a parent Jest/ts-node leak into n8n.
  delete env.NODE_OPTIONS;
  delete env.JEST_WORKER_ID;
  const keep = opts.keep ?? Boolean(opts.userFolder);
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

/** Runs `n8n <args>` for a home, with Node 24 and the home's env. Throws N8nCommandError on failure. */
export async function n8n(home: N8nHome, args: string[], opts: { timeoutMs?: number; allowFailure?: boolean } = {}): Promise<RunResult> {
  const bin = join(home.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
  // A fresh task-broker port per command (n8n starts its task broker even for `execute`/`import`):
  // a port held across many commands could be taken meanwhile by another process's ephemeral port.
  const brokerPort = String(await freePort());
  const result = await run(nodeBinary(), [bin, ...args], {
    cwd: home.userFolder,
    env: { ...home.env, N8N_RUNNERS_BROKER_PORT: brokerPort },
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

async function writeInput(home: N8nHome, name: string, data: unknown): Promise<string> {
  const dir = join(home.root, '.harness-input');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}-${Date.now()}-${randomBytes(3).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(data, null, 2));
  return file;
}

/** `n8n import:credentials`: `data` is given in plain text and encrypted by n8n on import. */
export async function importCredentials(home: N8nHome, creds: N8nCredential[]): Promise<RunResult> {
  const file = await writeInput(home, 'credentials', creds);
  return n8n(home, ['import:credentials', `--input=${file}`]);
}

/** `n8n import:workflow` of one workflow (or several). */
export async function importWorkflow(home: N8nHome, wf: N8nWorkflow | N8nWorkflow[]): Promise<RunResult> {
  const list = Array.isArray(wf) ? wf : [wf];
  for (const w of list) {
    if (!w.id || w.id.length > 21) throw new Error(`workflow id must be 1..21 chars, got ${JSON.stringify(w.id)}`);
  }
  const file = await writeInput(home, 'workflow', list.map((w) => ({ active: false, settings: {}, ...w })));
  return n8n(home, ['import:workflow', `--input=${file}`]);
}

export interface ChainNode {
  name: string;
  /** `<packageName>.<node name>` for a community node, e.g. `n8n-nodes-relay-messaging.relay`. */
  type: string;
  typeVersion?: number;
  parameters?: Record<string, unknown>;
  /** `{ <credential type>: { id, name } }` of an imported credential. */
  credentials?: Record<string, { id: string; name: string }>;
  /** e.g. `onError: 'continueErrorOutput'`, `retryOnFail`, … (copied onto the node). */
  [key: string]: unknown;
}

/**
 * A workflow "Start" (Manual Trigger) → nodes[0] → nodes[1] → … (main output 0 into input 0), ready
 * for importWorkflow + executeWorkflow. `id` ≤ 21 chars.
 */
export function manualWorkflow(opts: { id: string; name?: string; nodes: ChainNode[] }): N8nWorkflow {
  const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} };
  const all = [trigger, ...opts.nodes];
  const nodes = all.map((node, i) => ({
    id: `${opts.id}-n${i}`.slice(-36),
    position: [i * 220, 0],
    typeVersion: 1,
    parameters: {},
    ...node,
  }));
  const connections: Record<string, unknown> = {};
  for (let i = 0; i + 1 < all.length; i++) {
    connections[all[i]!.name] = { main: [[{ node: all[i + 1]!.name, type: 'main', index: 0 }]] };
  }
  return { id: opts.id, name: opts.name ?? opts.id, nodes, connections, active: false, settings: { executionOrder: 'v1' } };
}

/**
 * Finds the run JSON in n8n's stdout: log lines come before it (task broker, license SDK, …) and, on a
 * failed run, an "Execution error:" block after it; the object is pretty-printed with its first line
 * `{` and its last line `}`. Tries each `{` line with each later `}` line, longest first.
 * Returns the run and the text around it (`logs`).
 */
export function parseRunOutput(stdout: string): { run: any; logs: string } {
  const lines = stdout.split('\n').map((line) => line.replace(/\r$/, ''));
  const opens: number[] = [];
  const closes: number[] = [];
  lines.forEach((line, i) => {
    if (line === '{' || line.startsWith('{"')) opens.push(i);
    if (line === '}' || line.endsWith('}')) closes.push(i);
  });
  for (const open of opens) {
    for (let c = closes.length - 1; c >= 0; c--) {
      const close = closes[c]!;
      if (close < open) break;
      let value: any;
      try {
        value = JSON.parse(lines.slice(open, close + 1).join('\n'));
      } catch {
        continue;
      }
      if (value && typeof value === 'object' && value.data && typeof value.data === 'object' && 'resultData' in value.data) {
        return { run: value, logs: [...lines.slice(0, open), ...lines.slice(close + 1)].join('\n').trim() };
      }
    }
  }
  throw new Error(`no run JSON found in n8n's output:\n${tail(stdout, 60)}`);
}

/**
 * `n8n execute --id=<id> --rawOutput` (n8n boots, runs the workflow from its Manual Trigger, prints the
 * run, exits: ~2.5 s). Resolves with the parsed run. A failed run (n8n exits 1, `status: 'error'`)
 * throws N8nCommandError whose message has the node's error message and n8n's log text — unless
 * `allowFailure`, then the result (with `error`, `status`, `code`) is returned for assertions.
 */
export async function executeWorkflow(
  home: N8nHome,
  id: string,
  opts: { timeoutMs?: number; allowFailure?: boolean } = {},
): Promise<ExecuteResult> {
  const args = ['execute', `--id=${id}`, '--rawOutput'];
  const result = await n8n(home, args, { timeoutMs: opts.timeoutMs ?? 180_000, allowFailure: true });
  let parsed: { run: any; logs: string };
  try {
    parsed = parseRunOutput(result.stdout);
  } catch {
    throw new N8nCommandError(
      `n8n execute --id=${id} ${result.timedOut ? `timed out after ${result.durationMs} ms` : `exited ${result.code}`} without printing a run:\n` +
        `--- stdout ---\n${tail(result.stdout)}\n--- stderr ---\n${tail(result.stderr)}`,
      args,
      result,
    );
  }
  const raw = parsed.run;
  const runData = (raw.data.resultData.runData ?? {}) as Record<string, any[]>;
  const error = raw.data.resultData.error;
  // A crash after the complete run was printed does not change the run: judge by the run then.
  const crashedAtExit = !result.timedOut && result.code === null && result.signal !== null;
  const exitFailed = crashedAtExit ? false : result.code !== 0;
  const failed = exitFailed || result.timedOut || Boolean(error) || (raw.status !== undefined && raw.status !== 'success');
  if (failed && !opts.allowFailure) {
    const where = error?.node?.name ? ` in node "${error.node.name}"` : '';
    throw new N8nCommandError(
      `workflow ${id} failed${where}: ${error?.message ?? (result.timedOut ? `timed out after ${result.durationMs} ms` : `n8n exited ${result.code ?? result.signal}, status ${raw.status}`)}` +
        (error?.description ? ` — ${error.description}` : '') +
        `\n--- n8n output (without the run JSON) ---\n${tail(parsed.logs)}` +
        (result.stderr.trim() ? `\n--- stderr ---\n${tail(result.stderr)}` : ''),
      args,
      result,
    );
  }
  return {
    runData,
    raw,
    status: raw.status,
    error,
    code: result.code,
    signal: result.signal,
    crashedAtExit,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
  };
}

/** The `json` of every item on output `output` (default 0) of the last run of node `nodeName`. */
export function outputItems(runData: Record<string, any[]>, nodeName: string, output = 0): Array<Record<string, unknown>> {
  const runs = runData[nodeName];
  if (!runs || runs.length === 0) throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})`);
  const last = runs[runs.length - 1];
  if (last.error) throw new Error(`node "${nodeName}" failed: ${last.error.message ?? JSON.stringify(last.error)}`);
  const items = (last.data?.main?.[output] ?? []) as Array<{ json: Record<string, unknown> }>;
  return items.map((item) => item.json);
}

// ---------------------------------------------------------------------------------------------
// The editor (`n8n start`)

export interface N8nServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything n8n printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `n8n start` on 127.0.0.1:<port>; resolves once /healthz answers. `timeoutMs` bounds the start;
 * `maxLifetimeMs` (default: none) bounds the whole server life.
 */
export async function startN8n(
  home: N8nHome,
  opts: { port?: number; timeoutMs?: number; maxLifetimeMs?: number; env?: NodeJS.ProcessEnv; echo?: boolean } = {},
): Promise<N8nServer> {
  installExitHook();
  const port = opts.port ?? (await freePort());
  const bin = join(home.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
  const child = spawn(nodeBinary(), [bin, 'start'], {
    cwd: home.userFolder,
    env: {
      ...home.env,
      N8N_RUNNERS_BROKER_PORT: String(await freePort()),
      N8N_PORT: String(port),
      N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_URL: `http://127.0.0.1:${port}/`,
      N8N_SECURE_COOKIE: 'false',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  let out = '';
  const onData = (chunk: string): void => {
    out += chunk;
    if (opts.echo) process.stdout.write(chunk);
  };
  child.stdout!.setEncoding('utf8').on('data', onData);
  child.stderr!.setEncoding('utf8').on('data', onData);
  child.on('exit', () => live.delete(child));
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
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`n8n start exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(out)}`);
    }
    try {
      const res = await fetch(`${server.url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return server;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error(`n8n start not ready on ${server.url} within ${opts.timeoutMs ?? 120_000} ms:\n${tail(out)}`);
}

/** Times the steps of an e2e run by label, for the timings line each suite prints. */
export function stopwatch(): { timings: Record<string, number>; time<T>(label: string, fn: () => Promise<T>): Promise<T> } {
  const timings: Record<string, number> = {};
  return {
    timings,
    async time<T>(label: string, fn: () => Promise<T>): Promise<T> {
      const t = Date.now();
      try {
        return await fn();
      } finally {
        timings[label] = Date.now() - t;
      }
    },
  };
}
