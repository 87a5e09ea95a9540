/**
 * A streamed data file is read twice: pass 1 validates every row (an invalid row, or one holding the API
 * key, means nothing is sent, as when the file was read whole), pass 2 reads it again and sends. Pass 1
 * notes a digest of each group of items it checked; pass 2 sends a group only when its items have the
 * same digest, so nothing unchecked is ever sent if the file changes between the passes.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { InputError } from '../inputs.ts';

function digestOf(items: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest('hex');
}

export class GroupDigests {
  private readonly digests: string[] = [];
  private hash: Hash | undefined;
  private inGroup = 0;
  readonly size: number;
  /** Items checked in pass 1. */
  count = 0;

  constructor(size: number) {
    this.size = size;
  }

  /** Pass 1: one item that will be sent, in order. */
  add(item: unknown): void {
    this.hash ??= createHash('sha256');
    this.hash.update(`${JSON.stringify(item)}\n`);
    this.count += 1;
    if (++this.inGroup === this.size) this.close();
  }

  /** Pass 1 is over. */
  end(): void {
    if (this.inGroup) this.close();
  }

  private close(): void {
    this.digests.push(this.hash!.digest('hex'));
    this.hash = undefined;
    this.inGroup = 0;
  }

  /** Pass 2: whether group `n` holds what pass 1 checked. */
  matches(n: number, items: readonly unknown[]): boolean {
    return this.digests[n] === digestOf(items);
  }
}

/** The file changed between the passes (or while pass 2 read it): what is left is not sent. */
export function changedError(path: string, line: number | undefined, sentBefore: string): InputError {
  return new InputError(
    'file',
    `${path}${line ? `:${line}` : ''} changed while the action was reading it (it differs from what was checked before sending); nothing more was sent. ${sentBefore} Run the job again once the file stays put: the keys replay what was already sent.`,
  );
}
