/** §8 per-key fixed windows aligned to unix time: counting calls and the X-RateLimit-* headers. */
import type { AccountConfig, KeyConfig } from './types.ts';

export interface RateVerdict {
  headers: Record<string, string>;
  exceeded: boolean;
  retryAfter: number;
}

export class RateLimiter {
  private slots = new Map<string, { window: number; count: number }>();
  private readonly windowSeconds: () => number;

  constructor(windowSeconds: () => number) {
    this.windowSeconds = windowSeconds;
  }

  reset(): void {
    this.slots.clear();
  }

  /** Counts one call for the key; returns the rate-limit headers and whether the call is over the ceiling (then it is not counted). */
  count(key: KeyConfig, account: AccountConfig, now: number): RateVerdict {
    const w = this.windowSeconds();
    const window = Math.floor(now / 1000 / w);
    const reset = (window + 1) * w;
    let slot = this.slots.get(key.key);
    if (!slot || slot.window !== window) {
      slot = { window, count: 0 };
      this.slots.set(key.key, slot);
    }
    const limit = account.rate_limit;
    const exceeded = slot.count >= limit;
    if (!exceeded) slot.count++;
    const retryAfter = Math.max(1, Math.ceil(reset - now / 1000));
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - slot.count)),
      'X-RateLimit-Reset': String(reset),
    };
    return { headers, exceeded, retryAfter };
  }

  /** Each key's current window (keys whose window has passed show 0 used). */
  windows(now: number): { key: string; used: number; reset: number }[] {
    const w = this.windowSeconds();
    const current = Math.floor(now / 1000 / w);
    return [...this.slots].map(([key, s]) => ({ key, used: s.window === current ? s.count : 0, reset: (current + 1) * w }));
  }
}
