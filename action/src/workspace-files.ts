/**
 * Files the workflow names (data files, body files, recipient lists), read from the checkout and decoded
 * strictly: UTF-8 (a BOM is dropped) or UTF-16 with its BOM. Anything else — e.g. a Latin-1 export — is
 * refused naming the file and its first bad line, instead of becoming mojibake in messages.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from './inputs.ts';

export interface WorkspaceFile {
  /** As shown to users and in annotations: relative to the workspace. */
  path: string;
  text: string;
}

/** The first 1-based line of `bytes` that is not valid UTF-8, or undefined. */
function firstBadUtf8Line(bytes: Uint8Array): number | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      start = i + 1;
      line += 1;
    }
  }
  return undefined;
}

export function decodeText(bytes: Uint8Array, shownPath: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const line = firstBadUtf8Line(body) ?? 1;
    throw new EncodingError(shownPath, line);
  }
}

export class EncodingError extends Error {
  /** The file as shown to the user (relative to the workspace). */
  readonly path: string;
  readonly line: number;
  constructor(path: string, line: number) {
    super(`${path}:${line}: is not UTF-8 (first bad byte on line ${line}); save the file as UTF-8 (or UTF-16 with a BOM), e.g. \`iconv -f latin1 -t utf-8\``);
    this.name = 'EncodingError';
    this.path = path;
    this.line = line;
  }
}

/** Reads `path` (relative to the workspace) for `input`; unreadable files fail naming the input. */
export function readWorkspaceFile(workspace: string, input: string, path: string): WorkspaceFile {
  const full = isAbsolute(path) ? path : resolve(workspace, path);
  const rel = relative(workspace, full);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : full;
  let bytes: Buffer;
  try {
    bytes = readFileSync(full);
  } catch (error) {
    throw new InputError(input, `cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); paths are relative to the workspace (${workspace}) — did the job check out the repository?`);
  }
  return { path: shown, text: decodeText(bytes, shown) };
}
