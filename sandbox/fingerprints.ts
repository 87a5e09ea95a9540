/**
 * Duplicate detection that outlives the message bodies: one 64-bit hash per message ever created
 * (account, channel, to, subject, body), in an open-addressed table of two Uint32Arrays. 8 bytes a slot at
 * a load of at most 1/2, so 8-16 bytes per message, instead of the message itself.
 * Two different messages share a hash with probability about n²/2⁶⁵ (3·10⁻⁸ at a million): that would
 * count one false duplicate, never hide one.
 */
import { createHash } from 'node:crypto';

const FIRST_CAPACITY = 1024;

export class Fingerprints {
  private hi = new Uint32Array(FIRST_CAPACITY);
  private lo = new Uint32Array(FIRST_CAPACITY);
  private size = 0;

  reset(): void {
    this.hi = new Uint32Array(FIRST_CAPACITY);
    this.lo = new Uint32Array(FIRST_CAPACITY);
    this.size = 0;
  }

  /** Records the message's fingerprint; true when the same fingerprint was recorded before. */
  add(parts: readonly (string | null)[]): boolean {
    const d = createHash('sha256').update(JSON.stringify(parts)).digest();
    const hi = d.readUInt32LE(0);
    // (0, 0) marks an empty slot.
    const lo = d.readUInt32LE(4) || 1;
    if (this.find(hi, lo)) return true;
    if ((this.size + 1) * 2 > this.hi.length) this.grow();
    this.place(hi, lo);
    this.size++;
    return false;
  }

  private find(hi: number, lo: number): boolean {
    const mask = this.hi.length - 1;
    for (let i = (hi ^ lo) & mask; ; i = (i + 1) & mask) {
      const h = this.hi[i]!;
      const l = this.lo[i]!;
      if (h === hi && l === lo) return true;
      if (h === 0 && l === 0) return false;
    }
  }

  private place(hi: number, lo: number): void {
    const mask = this.hi.length - 1;
    let i = (hi ^ lo) & mask;
    while (this.hi[i] !== 0 || this.lo[i] !== 0) i = (i + 1) & mask;
    this.hi[i] = hi;
    this.lo[i] = lo;
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0 || lo[i] !== 0) this.place(hi[i]!, lo[i]!);
  }
}
