/**
 * Incremental sync on `push`: the rows of the contacts file that changed since `github.event.before`,
 * read from the checkout with git. A row is identified by its content; a row present before and not
 * now is "removed" (listed in the summary: the spec has no delete endpoint). When the previous commit
 * is not in the clone (the default shallow checkout) the caller falls back to a full sync. The previous
 * version obeys the rule of the current file (read-paths.ts): a path that was a symlink in that commit
 * (git mode 120000) is not followed, and a file outside the repository has no previous version.
 */
import { execFile, spawn } from 'node:child_process';
import { ContentIndex } from './content-index.ts';
import type { DataRecord } from './data-files.ts';

const ZERO_SHA = /^0+$/;

/**
 * The previous version's raw bytes as a stream from git (each call runs `git cat-file` anew; decoded by
 * the caller as strictly as the current file), or why there is none.
 */
type PreviousVersion = { status: 'found'; before: string; bytes: () => AsyncIterable<Uint8Array> } | { status: 'absent-file' } | { status: 'absent-commit'; reason: string } | { status: 'not-followed'; reason: string } | { status: 'not-push' };

const SYMLINK_MODE = '120000';

function git(cwd: string, args: string[]): Promise<{ ok: true; stdout: Buffer } | { ok: false; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, maxBuffer: 512 * 1024 * 1024, encoding: 'buffer' }, (error, stdout, stderr) => {
      if (error) resolve({ ok: false, stderr: String(stderr || error.message).trim() });
      else resolve({ ok: true, stdout });
    });
  });
}

/**
 * The file as it was at `before`, when the event is a push whose previous commit this clone holds. `path`
 * is the file's real path relative to the repository root (`workspace`), undefined when outside it.
 */
export async function previousVersion(workspace: string, eventName: string, payload: Record<string, unknown>, path: string | undefined): Promise<PreviousVersion> {
  if (eventName !== 'push') return { status: 'not-push' };
  const before = typeof payload.before === 'string' ? payload.before : '';
  // A new branch's push has no previous commit: the whole file is synced.
  if (!/^[0-9a-f]{40}$/.test(before) || ZERO_SHA.test(before)) return { status: 'not-push' };
  const commit = await git(workspace, ['cat-file', '-e', `${before}^{commit}`]);
  if (!commit.ok) return { status: 'absent-commit', reason: `the previous commit ${before.slice(0, 7)} is not in this clone (a shallow checkout)` };
  if (path === undefined) return { status: 'not-followed', reason: 'the file is not in the repository' };
  // Its entry in that commit's tree (`<mode> <type> <sha>\t<path>`): only a regular file's blob is read.
  const entry = await git(workspace, ['--literal-pathspecs', 'ls-tree', '-z', before, '--', path]);
  const fields = entry.ok ? /^(\d+) (\w+) ([0-9a-f]+)\t/.exec(entry.stdout.toString('utf8')) : null;
  if (!fields) return { status: 'absent-file' };
  const [, mode, type, blob] = fields;
  if (mode === SYMLINK_MODE) return { status: 'not-followed', reason: `${path} was a symbolic link in ${before.slice(0, 7)}, which is not followed` };
  if (type !== 'blob') return { status: 'absent-file' };
  return { status: 'found', before, bytes: () => blobStream(workspace, blob) };
}

/** A blob's bytes as git writes them: memory holds a pipe's buffer, not the file. */
async function* blobStream(cwd: string, blob: string): AsyncGenerator<Uint8Array> {
  const child = spawn('git', ['cat-file', 'blob', blob], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8').slice(0, 1000)));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await exited;
  if (code !== 0) throw new Error(`git cat-file failed (${code}): ${stderr.trim()}`);
}

interface RowDiff {
  /** Indexes (into the current records) of rows new or changed since the previous version. */
  changed: number[];
  /** Rows of the previous version whose contact (by `identity`) is in no current row. */
  removed: DataRecord[];
}

/**
 * Rows compared by content (canonical JSON), as multisets: moving rows around changes nothing. An
 * edited row is changed, not removed: removed rows are those whose identity (e.g. e-mail) is gone.
 * The same steps as the streamed sync (sync-contacts.ts), on lists.
 */
export function diffRows(previous: readonly DataRecord[], current: readonly DataRecord[], identity: (r: DataRecord) => string): RowDiff {
  const index = new ContentIndex();
  for (const r of previous) index.add(r.value);
  const changed: number[] = [];
  current.forEach((r, i) => {
    if (!index.take(r.value)) changed.push(i);
  });
  const present = new Set(current.map(identity));
  return { changed, removed: previous.filter((r) => index.unmatched(r.value) && !present.has(identity(r))) };
}
