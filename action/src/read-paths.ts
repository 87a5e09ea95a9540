/**
 * Where the action may read files: the workspace and RUNNER_TEMP, plus the directories the workflow lists
 * in `read-dirs-outside-workspace` — each by its real path, and every file by its real path (after every
 * symlink, `..` and absolute path). A file anywhere else is refused naming the input and where the path
 * leads, before it is opened. On `pull_request_target` the workflow is trusted but the checkout is not: a
 * symlink in the pull request must not make the action send /proc/self/environ or a credentials file.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from './inputs.ts';

export const OUTSIDE_INPUT = 'read-dirs-outside-workspace';

/** Kernel and device trees: never files of data, whatever is listed (e.g. /proc/self/environ, /dev/stdin). */
const NEVER_READ = ['/proc', '/sys', '/dev'];

export interface ReadRoots {
  /** The workspace's real path: paths shown to users and given to git are relative to it. */
  workspace: string;
  /** Real directories whose files may be read, with how each is named in messages. */
  dirs: { dir: string; name: string }[];
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** True when `path` is `dir` or below it (both real, absolute). */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

export function readRoots(workspace: string, runnerTemp: string | undefined, listed: readonly string[]): ReadRoots {
  const ws = real(workspace) ?? resolve(workspace);
  const dirs = [{ dir: ws, name: `the workspace (${ws})` }];
  const temp = runnerTemp ? real(runnerTemp) : undefined;
  if (temp) dirs.push({ dir: temp, name: `RUNNER_TEMP (${temp})` });
  for (const given of listed) {
    const dir = real(given);
    if (!dir) throw new InputError(OUTSIDE_INPUT, `"${given}" does not exist (or cannot be read).`);
    dirs.push({ dir, name: `${given} (listed in ${OUTSIDE_INPUT})` });
  }
  return { workspace: ws, dirs };
}

/**
 * The real path of `given` (relative to the workspace, or absolute) when it is inside a root and not in a
 * kernel or device tree; otherwise refused for `input`, naming the path and where it leads, never its contents.
 */
export function confinedPath(roots: ReadRoots, workspace: string, input: string, given: string): string {
  const full = resolve(workspace, given);
  const target = real(full);
  if (target === undefined) return full; // missing: the read fails with ENOENT, naming the input
  if (!roots.dirs.some((r) => isWithin(r.dir, target))) {
    throw new InputError(
      input,
      `"${given}" leads to ${target}, outside the workspace: the action reads only files whose real path (after symlinks) is in ${roots.dirs.map((r) => r.name).join(', ')}. ` +
        `To read it anyway, list its directory in ${OUTSIDE_INPUT} (see "What the action reads, and what it will not" in the docs).`,
    );
  }
  if (NEVER_READ.some((dir) => isWithin(dir, target))) {
    throw new InputError(input, `"${given}" leads to ${target}, which the action never reads (/proc, /sys and /dev are not files of data).`);
  }
  return target;
}
