/**
 * `npm run n8n` — a real n8n 2.41.1 editor on http://127.0.0.1:5678 with this repo's community package
 * installed, signed-in owner pre-created, the sandbox running on 127.0.0.1:4010, and a credential for it
 * ("Messaging Service (sandbox)", demo key) and examples/n8n-workflow.json imported: open, run, look.
 *
 *   npm run n8n -- [<package.tgz>] [--credential <file.json>]... [--workflow <file.json>]...
 *                  [--port 5678] [--sandbox-port 4010] [--no-sandbox] [--fresh] [--max-minutes 240]
 *                  [--user-folder <dir>]
 *
 *   (no --credential / --workflow) the sandbox credential and the example workflow are imported.
 *   --no-sandbox       do not start the sandbox (bring your own service and credential).
 *
 *   <package.tgz>      an `npm pack` tarball to install. Omitted: runs `npm run build` and `npm pack`
 *                      (into .cache/n8n-editor/pack/) first.
 *   --credential FILE  n8n credential export(s): one object or an array of
 *                      `{ id, name, type, data: { …plain values… } }`; `${VAR}` in any string is replaced
 *                      by the environment variable VAR (so keys stay out of the file; the substituted
 *                      copy handed to `n8n import:credentials` is a 0600 file removed right after,
 *                      and n8n stores the credential encrypted). Repeatable.
 *   --workflow FILE    n8n workflow JSON(s) (one object or an array; `id` ≤ 21 chars, generated from the
 *                      file name when missing). Repeatable.
 *   --port N           default 5678 (127.0.0.1 only).
 *   --fresh            delete the user folder first (new database, new encryption key).
 *   --max-minutes N    stop n8n after N minutes (default 240). Ctrl-C stops it too.
 *   --user-folder DIR  default .cache/n8n-editor/home (git-ignored); it persists between runs.
 *
 * Sign-in: n8n 2.x asks for an owner account on the first screen. We pre-create it headless with
 * n8n's own env (N8N_INSTANCE_OWNER_MANAGED_BY_ENV=true, N8N_INSTANCE_OWNER_EMAIL,
 * N8N_INSTANCE_OWNER_PASSWORD_HASH = bcrypt): the browser shows the sign-in form straight away.
 * Defaults owner@example.com / MessagingN8n-local1; override with N8N_EDITOR_EMAIL / N8N_EDITOR_PASSWORD.
 * The n8n host itself is the cached one of setup-host.sh (first time ~3.5 min).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { start as startSandbox } from '../../../sandbox/server.ts';
import {
  createN8nHome,
  ensureHost,
  importCredentials,
  importWorkflow,
  killAll,
  ownerEnv,
  packPackage,
  readTarballManifest,
  repoRoot,
  run,
  startN8n,
  type N8nCredential,
  type N8nWorkflow,
} from './n8n-harness.ts';

const say = (line: string): void => {
  process.stdout.write(`[n8n-editor] ${line}\n`);
};

function substituteEnv(value: unknown, file: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = process.env[name];
      if (v === undefined) throw new Error(`${file}: \${${name}} is used but the environment variable ${name} is not set`);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => substituteEnv(v, file));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, file)]));
  }
  return value;
}

async function readJsonList<T>(file: string): Promise<T[]> {
  const text = await readFile(resolve(file), 'utf8');
  const data = JSON.parse(text) as T | T[];
  return Array.isArray(data) ? data : [data];
}

async function buildAndPack(dest: string): Promise<string> {
  const root = repoRoot();
  say('no tarball given: npm run build && npm pack');
  const build = await run('npm', ['run', 'build'], {
    cwd: root,
    env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
    timeoutMs: 10 * 60_000,
    onOutput: (chunk) => process.stdout.write(chunk),
  });
  if (build.code !== 0) throw new Error(`npm run build failed (exit ${build.code}); pass a tarball path instead`);
  await rm(dest, { recursive: true, force: true });
  return packPackage(root, dest);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      credential: { type: 'string', multiple: true, default: [] },
      workflow: { type: 'string', multiple: true, default: [] },
      port: { type: 'string', default: '5678' },
      'sandbox-port': { type: 'string', default: '4010' },
      'no-sandbox': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      'max-minutes': { type: 'string', default: '240' },
      'user-folder': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'npm run n8n -- [<package.tgz>] [--credential <file.json>]... [--workflow <file.json>]... [--port 5678] [--fresh] [--max-minutes 240] [--user-folder <dir>]\n' +
        'See the header of test/e2e/n8n/start-editor.ts.\n',
    );
    return;
  }
  const root = repoRoot();
  const port = Number(values.port);
  const maxMinutes = Number(values['max-minutes']);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`bad --port ${values.port}`);
  if (!(maxMinutes > 0)) throw new Error(`bad --max-minutes ${values['max-minutes']}`);
  const editorDir = join(root, '.cache', 'n8n-editor');
  const userFolder = resolve(values['user-folder'] ?? join(editorDir, 'home'));

  // The embedded default: the sandbox this process serves, its demo credential, the example workflow.
  const sandbox = values['no-sandbox']
    ? undefined
    : await startSandbox({ port: Number(values['sandbox-port']) }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE') error.message += ` Here: --sandbox-port <n>, or --no-sandbox to keep the one that is running.`;
        throw error;
      });
  if (sandbox) say(`sandbox: ${sandbox.url} (demo keys: npm run sandbox prints them; inbox: ${sandbox.origin}/ ; ledger: ${sandbox.origin}/__sandbox/ledger/summary)`);
  const defaults = sandbox && !(values.credential as string[]).length && !(values.workflow as string[]).length;

  say('ensuring the n8n host (first time: ~3.5 min, 2.2 GB, cached afterwards)');
  await ensureHost({ verbose: true });

  const tarball = positionals[0] ? resolve(positionals[0]) : await buildAndPack(join(editorDir, 'pack'));
  if (!existsSync(tarball)) throw new Error(`no such tarball: ${tarball}`);
  const manifest = await readTarballManifest(tarball);

  if (values.fresh) {
    say(`--fresh: removing ${userFolder}`);
    await rm(userFolder, { recursive: true, force: true });
  }
  await mkdir(userFolder, { recursive: true });

  // Owner pre-created by n8n itself at start (bcrypt hash, as n8n stores it).
  const owner = { email: process.env.N8N_EDITOR_EMAIL ?? 'owner@example.com', password: process.env.N8N_EDITOR_PASSWORD ?? 'MessagingN8n-local1' };
  const home = await createN8nHome({ packageTarball: tarball, packageName: manifest.name, userFolder, keep: true });
  Object.assign(home.env, ownerEnv(home, owner));
  say(`installed ${manifest.name}@${manifest.version} into ${home.packageDir}`);

  if (defaults) {
    const fixture = (await readJsonList<N8nCredential>(join(root, 'test', 'e2e', 'n8n', 'fixtures', 'sandbox-credential.json')))[0];
    await importCredentials(home, [{ ...fixture, data: { ...fixture.data, baseUrl: sandbox.url } }]);
    (values.workflow as string[]).push(join(root, 'examples', 'n8n-workflow.json'));
    say(`imported credential "${fixture.name}" → ${sandbox.url}`);
  }
  for (const file of values.credential as string[]) {
    const creds = (substituteEnv(await readJsonList<N8nCredential>(file), file) as N8nCredential[]);
    await importCredentials(home, creds);
    say(`imported ${creds.length} credential(s) from ${file}: ${creds.map((c) => `${c.name} (${c.type}, id ${c.id})`).join(', ')}`);
  }
  for (const file of values.workflow as string[]) {
    const wfs = await readJsonList<N8nWorkflow>(file);
    wfs.forEach((wf, i) => {
      wf.id ??= createHash('sha256').update(`${resolve(file)}#${i}`).digest('hex').slice(0, 16);
      wf.name ??= basename(file, '.json');
    });
    await importWorkflow(home, wfs);
    say(`imported ${wfs.length} workflow(s) from ${file}: ${wfs.map((w) => `${w.name} (id ${w.id})`).join(', ')}`);
  }

  say(`starting n8n on 127.0.0.1:${port} (stops after ${maxMinutes} min or Ctrl-C)`);
  const server = await startN8n(home, {
    port,
    timeoutMs: 180_000,
    maxLifetimeMs: maxMinutes * 60_000,
    echo: process.env.N8N_EDITOR_QUIET !== '1',
  });
  const workflowsHint = (values.workflow as string[]).length ? ' — your workflows are under Overview' : '';
  process.stdout.write(
    `\n  n8n is ready: ${server.url}\n` +
      `  sign in:     ${owner.email} / ${owner.password}\n` +
      `  package:     ${manifest.name}@${manifest.version} (node types: ${manifest.name}.<node name>)${workflowsHint}\n` +
      `  user folder: ${userFolder} (kept; --fresh starts over)\n\n`,
  );

  let stopping = false;
  const stop = async (why: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say(`${why}: stopping n8n`);
    await server.stop();
    await sandbox?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await new Promise<void>((resolveExit) => server.process.once('exit', () => resolveExit()));
  if (!stopping) {
    await sandbox?.close();
    say(`n8n exited (${server.process.exitCode ?? server.process.signalCode})`);
    process.exitCode = server.process.exitCode || 0;
  }
}

main().catch(async (err: unknown) => {
  process.stderr.write(`[n8n-editor] ${err instanceof Error ? err.message : String(err)}\n`);
  await killAll();
  process.exit(1);
});
