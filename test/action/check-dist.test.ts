/**
 * check-dist: rebuild the bundle into a temp dir with the same script as `npm run build:action` and
 * fail when the committed action/dist differs (someone changed the sources without rebuilding).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers.ts';

const DIST = join(ROOT, 'action', 'dist');

test('the committed action/dist is what the sources build to', async () => {
  const out = mkdtempSync(join(tmpdir(), 'check-dist-'));
  try {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['build:action']).toContain('action/scripts/build.ts');
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [join(ROOT, 'action', 'scripts', 'build.ts'), out], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`build failed: ${stderr}`)) : resolve(),
      ),
    );
    const built = readdirSync(out).sort();
    expect(readdirSync(DIST).sort()).toEqual(built);
    const differing = built.filter((f) => !readFileSync(join(out, f)).equals(readFileSync(join(DIST, f))));
    if (differing.length) throw new Error(`action/dist is stale (${differing.join(', ')} differ): run \`npm run build:action\` and commit action/dist.`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 120000);
