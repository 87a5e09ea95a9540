/**
 * Files the workflow names (data files, body files, recipient lists), read only where read-paths.ts allows
 * and decoded strictly: UTF-8 (a BOM is dropped) or UTF-16 with its BOM. Anything else — a Latin-1 export,
 * UTF-16 or UTF-32 without a BOM (valid UTF-8 byte for byte, but full of NULs), a NUL byte — is refused
 * naming the file and why, instead of becoming mojibake or NULs in what is sent.
 */
import { closeSync, constants, createReadStream, fstatSync, openSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from './inputs.ts';
import { confinedPath, isWithin } from './read-paths.ts';
import type { ReadRoots } from './read-paths.ts';

export interface WorkspaceFile {
  /** As shown to users and in annotations: relative to the workspace. */
  path: string;
  /** Its real path relative to the real workspace (what git knows it as), or undefined when outside. */
  repoPath?: string;
  text: string;
}

/** The first 1-based line of `bytes` that is not valid UTF-8, or undefined. */
export function firstBadUtf8Line(bytes: Uint8Array): number | undefined {
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

/** How many bytes at each position modulo `width` are NUL, in the first 4 KiB. */
function nulsByPosition(bytes: Uint8Array, width: number): { nuls: number[]; units: number } {
  const n = Math.min(bytes.length, 4096) - (Math.min(bytes.length, 4096) % width);
  const nuls = new Array<number>(width).fill(0);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) nuls[i % width] += 1;
  return { nuls, units: n / width };
}

/**
 * The encoding a BOM-less file with NULs looks like: text in UTF-32 has three NUL bytes in (nearly) every
 * 4, UTF-16 one in most pairs for Latin-script text, always at the same side.
 */
export function wideEncoding(bytes: Uint8Array): string | undefined {
  const four = nulsByPosition(bytes, 4);
  if (four.units >= 1) {
    const [a, b, c, d] = four.nuls.map((x) => x / four.units);
    if (c >= 0.9 && d === 1) return 'UTF-32LE';
    if (a === 1 && b >= 0.9) return 'UTF-32BE';
  }
  const two = nulsByPosition(bytes, 2);
  if (two.units >= 1) {
    const [even, odd] = two.nuls.map((x) => x / two.units);
    if (odd >= 0.3 && even < 0.05) return 'UTF-16LE';
    if (even >= 0.3 && odd < 0.05) return 'UTF-16BE';
  }
  return undefined;
}

/** 1-based line of the first NUL in `text`, or undefined. */
function nulLine(text: string): number | undefined {
  const at = text.indexOf('\u0000');
  return at < 0 ? undefined : text.slice(0, at).split('\n').length;
}

function strictUtf8(body: Uint8Array, shownPath: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const line = firstBadUtf8Line(body) ?? 1;
    throw new EncodingError(shownPath, line, `is not UTF-8 (first bad byte on line ${line}); save the file as UTF-8 (or UTF-16 with a BOM), e.g. \`iconv -f latin1 -t utf-8\``);
  }
}

export function decodeText(bytes: Uint8Array, shownPath: string): string {
  let text: string;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) || (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff)) {
    throw new EncodingError(shownPath, 1, 'is UTF-32 (its byte-order mark says so), which the action does not read: save it as UTF-8.', false);
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    const wide = body.includes(0) ? wideEncoding(body) : undefined;
    if (wide) throw new EncodingError(shownPath, 1, `looks like ${wide} without a byte-order mark (NUL bytes between its characters): save it as UTF-8${wide.startsWith('UTF-16') ? ', or as UTF-16 with its BOM' : ''}.`, false);
    text = strictUtf8(body, shownPath);
  }
  const line = nulLine(text);
  if (line !== undefined) throw new EncodingError(shownPath, line, `holds a NUL byte (on line ${line}): a text file has none; is it binary, or saved in another encoding?`);
  return text;
}

export class EncodingError extends Error {
  /** The file as shown to the user (relative to the workspace). */
  readonly path: string;
  readonly line: number;
  /** `problem` follows `path:line:` (or `path:` when the line says nothing, e.g. a whole-file encoding). */
  constructor(path: string, line: number, problem: string, atLine = true) {
    super(`${path}${atLine ? `:${line}` : ''}: ${problem}`);
    this.name = 'EncodingError';
    this.path = path;
    this.line = line;
  }
}

/** The file's bytes, opened without following a last-moment symlink and only when it is a regular file. */
function readRegularFile(path: string, input: string, given: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new InputError(input, `"${given}" is not a regular file.`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads `path` (relative to the workspace) for `input`, where `roots` allow; unreadable files fail naming the input. */
export function readWorkspaceFile(roots: ReadRoots, workspace: string, input: string, path: string): WorkspaceFile {
  const full = isAbsolute(path) ? path : resolve(workspace, path);
  const rel = relative(workspace, full);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : full;
  const target = confinedPath(roots, workspace, input, path);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(target, input, path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(input, `cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); paths are relative to the workspace (${workspace}) — did the job check out the repository?`);
  }
  const repoPath = isWithin(roots.workspace, target) ? relative(roots.workspace, target).split('\\').join('/') : undefined;
  return { path: shown, repoPath, text: decodeText(bytes, shown) };
}

/** A workspace file to read as a stream, as often as needed (each read opens it anew, as strictly). */
export interface StreamedFile {
  path: string;
  repoPath?: string;
  /** Its size in bytes when opened. */
  size: number;
  /** Its raw bytes, in read-sized buffers. */
  bytes(): AsyncIterable<Uint8Array>;
}

function openRegular(target: string, input: string, given: string): { fd: number; size: number } {
  const fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new InputError(input, `"${given}" is not a regular file.`);
  }
  return { fd, size: stat.size };
}

/** Like readWorkspaceFile, but the bytes are read as streams: memory holds one buffer, not the file. */
export function openWorkspaceFile(roots: ReadRoots, workspace: string, input: string, path: string): StreamedFile {
  const full = isAbsolute(path) ? path : resolve(workspace, path);
  const rel = relative(workspace, full);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : full;
  const target = confinedPath(roots, workspace, input, path);
  const open = (): { fd: number; size: number } => {
    try {
      return openRegular(target, input, path);
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(input, `cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); paths are relative to the workspace (${workspace}) — did the job check out the repository?`);
    }
  };
  const first = open();
  closeSync(first.fd);
  const repoPath = isWithin(roots.workspace, target) ? relative(roots.workspace, target).split('\\').join('/') : undefined;
  return { path: shown, repoPath, size: first.size, bytes: () => createReadStream('', { fd: open().fd, highWaterMark: 64 * 1024 }) };
}
