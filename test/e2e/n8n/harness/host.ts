/**
 * Installing things: the cached n8n host (setup-host.sh), `npm pack` of a community package, and
 * installing that tarball into an n8n nodes dir exactly as n8n 2.41's own installer does.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathWithRepoBin, repoRoot } from './paths.ts';
import { run, tail } from './processes.ts';

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
      throw new Error(`setup-host.sh failed (exit ${result.code}${result.timedOut ? ', timed out' : ''}):\n${tail(result.stderr)}`);
    }
    return dir;
  })();
  return hostPromise;
}

/**
 * `npm pack --ignore-scripts` of a package dir into destDir; resolves to the tarball path. The caller
 * owns destDir and removes it (a temp dir made here would outlive a killed Jest worker).
 */
export async function packPackage(packageDir: string, destDir: string): Promise<string> {
  const dest = destDir;
  await mkdir(dest, { recursive: true });
  const result = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: packageDir,
    env: { ...process.env, PATH: pathWithRepoBin() },
    timeoutMs: 120_000,
  });
  if (result.code !== 0) throw new Error(`npm pack failed in ${packageDir}:\n${tail(result.stderr)}`);
  const info = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as Array<{ filename: string }>;
  return join(dest, info[0]!.filename);
}

/** n8n loads only `<nodes>/node_modules/n8n-nodes-…` and `@scope/n8n-nodes-…` (n8n-core scanDirectoryForPackages). */
const LOADABLE_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?n8n-nodes-[a-z0-9._-]*$/;

/**
 * Installs an `npm pack` tarball into `<nodesDir>/node_modules/<packageName>` exactly as n8n 2.41's
 * CommunityPackagesService.downloadPackage does: `tar -xzf <tgz> -C <dir> --strip-components=1`; drop
 * devDependencies/peerDependencies/optionalDependencies from the unpacked package.json; `npm install`
 * its runtime dependencies inside it (none for a verified package: skipped then); record
 * `<name>: <version>` in `<nodesDir>/package.json` ("installed-nodes"). n8n itself does not need that
 * package.json to load the package; it is written to mirror a real install.
 */
export async function installPackageTarball(nodesDir: string, packageTarball: string, packageName: string): Promise<string> {
  if (!LOADABLE_NAME.test(packageName)) {
    throw new Error(`n8n only loads packages named n8n-nodes-* or @scope/n8n-nodes-*; ${packageName} would be ignored`);
  }
  const packageDir = join(nodesDir, 'node_modules', ...packageName.split('/'));
  await rm(packageDir, { recursive: true, force: true });
  await mkdir(packageDir, { recursive: true });
  const untar = await run('tar', ['-xzf', resolve(packageTarball), '-C', packageDir, '--strip-components=1'], { timeoutMs: 60_000 });
  if (untar.code !== 0) throw new Error(`tar -xzf ${packageTarball} failed:\n${tail(untar.stderr)}`);
  const manifestPath = join(packageDir, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, any>;
  for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies']) delete manifest[field];
  if (manifest.name !== packageName) throw new Error(`tarball holds package ${manifest.name}, expected ${packageName}`);
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
