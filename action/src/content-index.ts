/**
 * The previous version's rows as a multiset of content digests, never the rows: 128 bits of the SHA-256
 * of each row's canonical JSON, in one growable typed array while the rows are read, then sorted once
 * (16 bytes of digest a row) and binary-searched, with two bits a row: "matched" and "read back". About
 * 16.5 bytes a row, whatever the row's width (docs/github-action.md), where a Map of strings cost about 125.
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
  /** While rows are added: row r's digest at words [4r, 4r + 4), in file order. */
  private digests = new Uint32Array(WORDS * 1024);
  /**
   * Once sorted (by digest, then row): each place's first digest word (the binary search reads only these
   * until they are equal) and its other three words. Equal contents are adjacent, earliest row first, so
   * the k-th row of a content in file order is its group's k-th place: no row number is kept.
   */
  private heads: Uint32Array | undefined;
  private tails = new Uint32Array(0);
  /** Places whose head starts with bucket b's bits are [buckets[b], buckets[b + 1]): a search starts there. */
  private buckets = new Uint32Array(2);
  private shift = 32;
  /** One bit a place. Of each content's places, the matched ones are always the earliest. */
  private matched = new Uint8Array(0);
  private matchedRows = 0;
  /** One bit a place: asked of `unmatched` already. Of each content's places, again the earliest. */
  private readBack = new Uint8Array(0);
  private readonly probe = new Uint32Array(WORDS);
  rows = 0;

  add(value: Record<string, unknown>): void {
    if (this.heads) throw new Error('ContentIndex: a row was added after the index was searched.');
    if ((this.rows + 1) * WORDS > this.digests.length) {
      const grown = new Uint32Array(this.digests.length * 2);
      grown.set(this.digests);
      this.digests = grown;
    }
    digestInto(value, this.digests, this.rows * WORDS);
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

  /** Sorts once, on the first search; the rows' digests in file order and the growth slack go then. */
  private sort(): void {
    if (this.heads) return;
    const { digests, rows } = this;
    const order = new Uint32Array(rows);
    for (let r = 0; r < rows; r++) order[r] = r;
    order.sort((a, b) => {
      for (let w = 0; w < WORDS; w++) {
        const x = digests[a * WORDS + w]!;
        const y = digests[b * WORDS + w]!;
        if (x !== y) return x < y ? -1 : 1;
      }
      return a - b;
    });
    const heads = new Uint32Array(rows);
    const tails = new Uint32Array(rows * (WORDS - 1));
    order.forEach((r, place) => {
      heads[place] = digests[r * WORDS]!;
      for (let w = 1; w < WORDS; w++) tails[place * (WORDS - 1) + w - 1] = digests[r * WORDS + w]!;
    });
    // About eight rows a bucket: half a byte a row.
    const bits = Math.min(24, Math.max(0, Math.floor(Math.log2(rows || 1)) - 3));
    const shift = 32 - bits;
    const buckets = new Uint32Array((1 << bits) + 1);
    for (const head of heads) buckets[(bits ? head >>> shift : 0) + 1]! += 1;
    for (let b = 1; b < buckets.length; b++) buckets[b]! += buckets[b - 1]!;
    Object.assign(this, { heads, tails, buckets, shift, matched: new Uint8Array((rows + 7) >> 3), readBack: new Uint8Array((rows + 7) >> 3), digests: new Uint32Array(0) });
  }

  /** The place's digest against the probe: negative, zero or positive. */
  private compare(place: number): number {
    const head = this.heads![place]!;
    if (head !== this.probe[0]) return head < this.probe[0]! ? -1 : 1;
    for (let w = 1; w < WORDS; w++) {
      const x = this.tails[place * (WORDS - 1) + w - 1]!;
      const y = this.probe[w]!;
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
