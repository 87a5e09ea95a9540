/**
 * The previous version's rows as a multiset of content digests, never the rows: 128 bits of the SHA-256
 * of each row's canonical JSON, in one resizable buffer while the rows are read, then sorted in place
 * once and binary-searched, with two bits a row: "matched" and "read back". About 16.5 bytes a row,
 * whatever the row's width (docs/github-action.md), where a Map of strings cost about 125.
 *
 * The buffer is a resizable ArrayBuffer: it grows inside one address range V8 reserves, so it is never
 * copied and no large block is ever freed. (A typed array grown by doubling, then copied out to be sorted,
 * freed blocks of 8–16 MB; glibc kept them, and raised its mmap threshold, so later buffers stayed resident.)
 *
 * Two different contents share a digest with probability about n·m / 2^128 for n previous and m current
 * rows: below 10^-24 for ten million rows each. Such a collision would only make a changed row look
 * unchanged (not sent), never send a row that was not in the file.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../../src/index.ts';

/** 32-bit words in a digest. */
const WORDS = 4;

function digestInto(value: Record<string, unknown>, out: Uint32Array, at: number): void {
  // The one-shot hash: no Hash object (and its native context, freed only when collected) per row.
  const digest = hash('sha256', canonicalJson(value), 'buffer');
  for (let w = 0; w < WORDS; w++) out[at + w] = digest.readUInt32LE(4 * w);
}

/** The buffer grows by this much at a time: only what is written is ever committed. */
const GROWTH_BYTES = 1 << 20;

/** ES2024's resizable ArrayBuffer (Node 24 has it; the project's type library is ES2023). */
interface ResizableBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const ResizableBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;

/** A buffer that may grow to 2 GiB (134 million rows) in place; 256 MiB where the address space is tight. */
function reserve(): ResizableBuffer {
  try {
    return new ResizableBuffer(0, { maxByteLength: 2 ** 31 });
  } catch {
    return new ResizableBuffer(0, { maxByteLength: 2 ** 28 });
  }
}

const isSet = (bits: Uint8Array, place: number): boolean => (bits[place >> 3]! & (1 << (place & 7))) !== 0;

function set(bits: Uint8Array, place: number): void {
  bits[place >> 3]! |= 1 << (place & 7);
}

/** The first place of [first, end) whose bit is clear, or `end`; the set places of such a range are always a prefix. */
function firstUnset(bits: Uint8Array, first: number, end: number): number {
  let lo = first;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isSet(bits, mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `add` every previous row, then `take` matches a current row against the earliest previous row of equal
 * content; a second read of the previous version then asks `unmatched` of each row, once and in order, to
 * find the rows edited or removed since, at the lines a list comparison would name.
 */
export class ContentIndex {
  /** Row r's digest at words [4r, 4r + 4): in file order while rows are added, then sorted by digest. */
  private readonly buffer = reserve();
  /** Tracks the buffer's length as it grows. */
  private readonly words = new Uint32Array(this.buffer);
  private sorted = false;
  /** Places whose first word starts with bucket b's bits are [buckets[b], buckets[b + 1]): a search starts there. */
  private buckets = new Uint32Array(2);
  private shift = 32;
  /**
   * One bit a place. Equal contents are adjacent once sorted and interchangeable (the same digest), so the
   * k-th row of a content in file order is its group's k-th place: no row number is kept. Of each
   * content's places, the matched ones are always the earliest.
   */
  private matched = new Uint8Array(0);
  private matchedRows = 0;
  /** One bit a place: asked of `unmatched` already. Of each content's places, again the earliest. */
  private readBack = new Uint8Array(0);
  private readonly probe = new Uint32Array(WORDS);
  rows = 0;

  add(value: Record<string, unknown>): void {
    if (this.sorted) throw new Error('ContentIndex: a row was added after the index was searched.');
    const needed = (this.rows + 1) * WORDS * 4;
    if (needed > this.buffer.byteLength) {
      if (needed > this.buffer.maxByteLength) throw new Error(`ContentIndex: more than ${this.rows} rows; the index holds at most ${this.buffer.maxByteLength / (WORDS * 4)}.`);
      this.buffer.resize(Math.min(this.buffer.maxByteLength, this.buffer.byteLength + GROWTH_BYTES));
    }
    digestInto(value, this.words, this.rows * WORDS);
    this.rows += 1;
  }

  /** True when a previous row had exactly this content (that row is then matched). */
  take(value: Record<string, unknown>): boolean {
    this.sort();
    digestInto(value, this.probe, 0);
    const first = this.bound(0);
    // Most contents have one row: the second search is needed only when the first row is taken.
    if (first === this.rows || this.compare(first) !== 0) return false;
    const end = isSet(this.matched, first) ? this.bound(1) : first + 1;
    const place = firstUnset(this.matched, first, end);
    if (place === end) return false;
    set(this.matched, place);
    this.matchedRows += 1;
    return true;
  }

  /**
   * Second read of the previous version, row by row in order: true for a row no current row matched.
   * A content's k-th row in this read is its k-th place, matched when k is below the content's matches.
   */
  unmatched(value: Record<string, unknown>): boolean {
    this.sort();
    digestInto(value, this.probe, 0);
    const first = this.bound(0);
    const end = first < this.rows && this.compare(first) === 0 ? this.bound(1) : first;
    const place = firstUnset(this.readBack, first, end);
    // The previous version is one git blob: a second read that differs is a bug, not an input.
    if (place === end) throw new Error('ContentIndex: the previous version read differently the second time.');
    set(this.readBack, place);
    return !isSet(this.matched, place);
  }

  /** Whether any previous row is unmatched (so a second read is worth it). */
  get anyUnmatched(): boolean {
    return this.matchedRows < this.rows;
  }

  /** Sorts once, on the first search: in place (heapsort: no extra memory, n·log n whatever the input). */
  private sort(): void {
    if (this.sorted) return;
    this.sorted = true;
    const { rows } = this;
    for (let root = (rows >> 1) - 1; root >= 0; root--) this.siftDown(root, rows);
    for (let end = rows - 1; end > 0; end--) {
      this.swap(0, end);
      this.siftDown(0, end);
    }
    // About eight rows a bucket: half a byte a row.
    const bits = Math.min(24, Math.max(0, Math.floor(Math.log2(rows || 1)) - 3));
    const shift = 32 - bits;
    const buckets = new Uint32Array((1 << bits) + 1);
    for (let place = 0; place < rows; place++) buckets[(bits ? this.words[place * WORDS]! >>> shift : 0) + 1]! += 1;
    for (let b = 1; b < buckets.length; b++) buckets[b]! += buckets[b - 1]!;
    Object.assign(this, { buckets, shift, matched: new Uint8Array((rows + 7) >> 3), readBack: new Uint8Array((rows + 7) >> 3) });
  }

  private siftDown(root: number, end: number): void {
    for (let parent = root; ; ) {
      let child = 2 * parent + 1;
      if (child >= end) return;
      if (child + 1 < end && this.order(child, child + 1) < 0) child += 1;
      if (this.order(parent, child) >= 0) return;
      this.swap(parent, child);
      parent = child;
    }
  }

  /** Two places' digests compared: negative, zero or positive. */
  private order(a: number, b: number): number {
    const { words } = this;
    for (let w = 0; w < WORDS; w++) {
      const x = words[a * WORDS + w]!;
      const y = words[b * WORDS + w]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  private swap(a: number, b: number): void {
    const { words } = this;
    for (let w = 0; w < WORDS; w++) {
      const x = words[a * WORDS + w]!;
      words[a * WORDS + w] = words[b * WORDS + w]!;
      words[b * WORDS + w] = x;
    }
  }

  /** The place's digest against the probe: negative, zero or positive. */
  private compare(place: number): number {
    const { words, probe } = this;
    for (let w = 0; w < WORDS; w++) {
      const x = words[place * WORDS + w]!;
      const y = probe[w]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  /** The first place whose digest is ≥ the probe (`past` 0) or > it (`past` 1). */
  private bound(past: 0 | 1): number {
    const bucket = this.shift === 32 ? 0 : this.probe[0]! >>> this.shift;
    let lo = this.buckets[bucket]!;
    let hi = this.buckets[bucket + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid) < past) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
