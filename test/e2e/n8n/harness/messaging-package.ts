/** This repo's own community package in n8n: its name, and the build + `npm pack` the e2e tests install. */
import { join } from 'node:path';
import { nodeBinary, repoRoot } from './paths.ts';
import { run } from './processes.ts';

export const MESSAGING_PACKAGE = 'n8n-nodes-messaging-service';

/**
 * Builds and packs the package into outDir under the repo's build lock (lint-package.mjs --pack-only;
 * the lint test packs too); resolves to the tarball path.
 */
export async function buildAndPackMessagingPackage(outDir: string): Promise<string> {
  const packed = await run(nodeBinary(), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', outDir], { cwd: repoRoot(), timeoutMs: 6 * 60_000 });
  if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
  return JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string;
}
