/**
 * The set-up most real-n8n suites share: an in-process sandbox, this repo's package built and installed in
 * a fresh n8n home, and the sandbox credential every example workflow names (msgSandboxCred) pointed at
 * it. Registers the suite's hooks: each test starts from an empty sandbox (Jest runs them in random order).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../../../../sandbox/server.ts';
import type { Sandbox } from '../../../../sandbox/server.ts';
import type { SandboxConfigInput } from '../../../../sandbox/types.ts';
import { createN8nHome, importCredentials } from './home.ts';
import type { N8nCredential, N8nHome } from './home.ts';
import { ensureHost } from './host.ts';
import { buildAndPackMessagingPackage, MESSAGING_PACKAGE } from './messaging-package.ts';
import { killAll } from './processes.ts';

export interface PackagedN8n {
  sb: Sandbox;
  home: N8nHome;
}

export interface PackagedN8nOptions {
  /** Names the suite's temp folder. */
  name: string;
  sandbox?: SandboxConfigInput;
  /** A stopwatch's `time` (execute.ts), to report where the set-up's minutes went. */
  time?: <T>(label: string, work: () => Promise<T>) => Promise<T>;
  /** n8n's environment for the home (e.g. a PostgreSQL database started here), asked for just before it is made. */
  homeEnv?: () => Promise<NodeJS.ProcessEnv>;
  /** Runs first when the suite ends, before every process is killed: a server the suite started stops cleanly. */
  beforeCleanup?: () => Promise<void>;
}

/** The sandbox credential of the example workflows, with its base URL set to `url`. */
export function sandboxCredential(url: string): N8nCredential {
  const credential = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'sandbox-credential.json'), 'utf8')) as N8nCredential;
  return { ...credential, data: { ...credential.data, baseUrl: url } };
}

/** Read `sb` and `home` inside tests (they are set by the suite's beforeAll). */
export function usePackagedN8n(options: PackagedN8nOptions): PackagedN8n {
  const time = options.time ?? (<T>(_label: string, work: () => Promise<T>) => work());
  const suite = {} as PackagedN8n;
  let work: string | undefined;
  beforeAll(async () => {
    await time('ensureHost', () => ensureHost());
    suite.sb = await start({ port: 0, host: '127.0.0.1', config: options.sandbox });
    work = await mkdtemp(join(tmpdir(), `n8n-${options.name}-e2e-`));
    const tarball = await time('build+pack', () => buildAndPackMessagingPackage(work!));
    const env = (await options.homeEnv?.()) ?? {};
    suite.home = await time('createN8nHome', () => createN8nHome({ packageTarball: tarball, packageName: MESSAGING_PACKAGE, env }));
    await time('importCredentials', () => importCredentials(suite.home, [sandboxCredential(suite.sb.url)]));
  }, 20 * 60_000);
  beforeEach(() => suite.sb.control.reset());
  afterAll(async () => {
    await options.beforeCleanup?.();
    await killAll();
    await suite.sb?.close();
    await suite.home?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });
  return suite;
}
