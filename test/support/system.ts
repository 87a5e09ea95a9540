/**
 * What the tests need from the machine, found the way a shell finds it (`command -v`: each PATH entry in
 * turn), never at a hard-coded path. `.ci/run` installs what is missing; a test helper never installs.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable named `name` on PATH, or undefined. */
export function commandPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here: the next PATH entry
    }
  }
  return undefined;
}

/** The executable, or an error naming the Debian package that brings it and who installs it. */
export function requireCommand(name: string, debianPackage: string, purpose: string): string {
  const found = commandPath(name);
  if (found) return found;
  throw new Error(
    `${name} is not on PATH: ${purpose} needs it. Install Debian's ${debianPackage} (apt-get install ${debianPackage}; .ci/run does this when it is missing).`,
  );
}

/** Debian's chromium, for the browser tests and screenshots. CHROMIUM_PATH overrides the PATH lookup. */
export function chromiumPath(purpose: string): string {
  return process.env.CHROMIUM_PATH || requireCommand('chromium', 'chromium', purpose);
}

/** The flags a root, offline, headless Chromium needs here (no background network, no sandbox as root). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The switch that skips the real-n8n suites on a developer's machine (MSGSVC_SKIP_N8N_E2E=1). Under CI it
 * is an error: CI must prove what README cites, not go green around it.
 */
export function realN8nSkipped(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.MSGSVC_SKIP_N8N_E2E !== '1') return false;
  if (env.CI === 'true') throw new Error('MSGSVC_SKIP_N8N_E2E=1 is set under CI=true: CI runs every real-n8n suite; unset it.');
  return true;
}
