/**
 * Reading a data file again after pass 1 (two-pass.ts): its records in groups, each group handed on only
 * when it reads exactly as pass 1 saw it; a file that changed stops the read before its rows are used.
 */
import type { DataRecord } from '../data-files.ts';
import type { RecordSource } from './shared.ts';
import { changedError, GroupDigests } from './two-pass.ts';

export interface IndexedRecord extends DataRecord {
  /** Zero-based, in file order. */
  index: number;
}

/** A set of row numbers: one bit a row. */
export class RowSet {
  private bits = new Uint8Array(1024);

  add(i: number): void {
    if (i >> 3 >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, (i >> 3) + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[i >> 3] |= 1 << (i & 7);
  }

  has(i: number): boolean {
    return ((this.bits[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  }
}

/** Records as pass 1 read them (`digests` over each record's value); `sentBefore` words the stop. */
export async function* verifiedRecords(source: RecordSource, digests: GroupDigests, sentBefore: () => string): AsyncGenerator<IndexedRecord> {
  const path = source.file.path;
  let group = 0;
  let index = 0;
  let held: DataRecord[] = [];
  const release = function* (): Generator<IndexedRecord> {
    if (!digests.matches(group++, held.map((r) => r.value))) throw changedError(path, held[0]?.line, sentBefore());
    const out = held;
    held = [];
    for (const r of out) yield { ...r, index: index++ };
  };
  for await (const r of source.records()) {
    if (index + held.length >= digests.count) throw changedError(path, r.line, sentBefore());
    held.push(r);
    if (held.length === digests.size) yield* release();
  }
  if (held.length) yield* release();
  if (index !== digests.count) throw changedError(path, undefined, sentBefore());
}
