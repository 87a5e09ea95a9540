import { shareSpacing, WindowShare } from '../../src/window-share.ts';
import { simulateSharedKey } from './shared-key-sim.ts';

/**
 * Pacing across processes that share one key and nothing else (docs/scale.md). The estimate and the
 * spacing are pure; the behaviour of several limiters together runs on one virtual clock.
 */
const RESET = 1_700_000_060;

describe('WindowShare: who else spends the window, from our own answers', () => {
  test('alone, with calls in flight, it never sees anyone else', () => {
    const share = new WindowShare();
    // Two calls in flight at a time: each answer's count already includes the other call's.
    let remaining = 40;
    for (let i = 0; i < 40; i++) {
      remaining -= 1;
      share.observe({ limit: 40, remaining: Math.max(0, remaining - (i % 2 === 0 ? 1 : 0)), reset: RESET, unanswered: i % 2 === 0 ? 1 : 0 });
      expect(share.sharers).toBe(1);
    }
  });

  test('a call whose answer was lost, or that was refused, is not taken for another process', () => {
    const share = new WindowShare();
    share.observe({ limit: 10, remaining: 9, reset: RESET, unanswered: 0 });
    share.uncounted(); // the server counted it (remaining 8), we never heard
    share.observe({ limit: 10, remaining: 7, reset: RESET, unanswered: 0 });
    share.uncounted(); // a 429 the server counted anyway (as the sandbox's injected ones are)
    share.observe({ limit: 10, remaining: 5, reset: RESET, unanswered: 0 });
    expect(share.sharers).toBe(1);
    // One call more than ours and the uncertain ones: somebody else.
    share.observe({ limit: 10, remaining: 3, reset: RESET, unanswered: 0 });
    expect(share.sharers).toBe(2);
  });

  test('others spending between our calls: as many sharers as their part says, held into the next window', () => {
    const share = new WindowShare();
    // Three calls of others before each of ours: four processes' worth.
    for (let i = 0; i < 8; i++) share.observe({ limit: 40, remaining: 40 - 4 * (i + 1), reset: RESET, unanswered: 0 });
    expect(share.sharers).toBe(4);
    // Next window, before anyone else was seen in it: still four.
    share.observe({ limit: 40, remaining: 39, reset: RESET + 60, unanswered: 0 });
    expect(share.sharers).toBe(4);
    // A whole window alone: back to 1, so a process left alone bursts again.
    for (let i = 1; i < 10; i++) share.observe({ limit: 40, remaining: 39 - i, reset: RESET + 60, unanswered: 0 });
    share.observe({ limit: 40, remaining: 39, reset: RESET + 120, unanswered: 0 });
    expect(share.sharers).toBe(1);
  });

  test('a late joiner does not carry the calls made before it arrived into the next window', () => {
    const share = new WindowShare();
    // 30 calls were spent before our first answer; then one other process alternates with us.
    for (let i = 0; i < 5; i++) share.observe({ limit: 40, remaining: 40 - 30 - 1 - i * 2, reset: RESET, unanswered: 0 });
    expect(share.sharers).toBeGreaterThan(2); // cold: all that others spent counts, for this window
    share.observe({ limit: 40, remaining: 39, reset: RESET + 60, unanswered: 0 });
    expect(share.sharers).toBe(2);
  });

  test('shares near each other round to the same count, so they even out', () => {
    // Ours 4 of every 10 calls (40/60 split between two): 2.5 → 2, the same as the larger one's 1.67 → 2.
    const share = new WindowShare();
    for (const remaining of [39, 36, 34, 31, 29]) share.observe({ limit: 40, remaining, reset: RESET, unanswered: 0 }); // 2, 1, 2, 1 others between ours
    share.observe({ limit: 40, remaining: 39, reset: RESET + 60, unanswered: 0 });
    expect(share.sharers).toBe(2);
  });

  test('the window length is learnt from consecutive resets', () => {
    const share = new WindowShare();
    share.observe({ limit: 5, remaining: 4, reset: RESET, unanswered: 0 });
    expect(share.windowMs).toBeUndefined();
    share.observe({ limit: 5, remaining: 4, reset: RESET + 2, unanswered: 0 });
    expect(share.windowMs).toBe(2000);
  });
});

describe('shareSpacing', () => {
  test('no spacing when alone, or when nothing is left to share', () => {
    expect(shareSpacing({ sharers: 1, remaining: 10, msToReset: 1000, backoff: 1, random: 0.5 })).toBe(0);
    expect(shareSpacing({ sharers: 4, remaining: 0, msToReset: 1000, backoff: 1, random: 0.5 })).toBe(0);
  });

  test('our part of what is left, spread to the reset, stretched by the back-off, jittered ±50 %', () => {
    // 4 sharers, 20 left, 2 s: 5 calls each, one every 400 ms.
    expect(shareSpacing({ sharers: 4, remaining: 20, msToReset: 2000, backoff: 1, random: 0.5 })).toBe(400);
    expect(shareSpacing({ sharers: 4, remaining: 20, msToReset: 2000, backoff: 2, random: 0.5 })).toBe(800);
    expect(shareSpacing({ sharers: 4, remaining: 20, msToReset: 2000, backoff: 1, random: 0 })).toBe(200);
    expect(shareSpacing({ sharers: 4, remaining: 20, msToReset: 2000, backoff: 1, random: 0.999 })).toBeCloseTo(599.6);
  });
});

describe('limiters of separate processes on one key (virtual clock)', () => {
  const base = { limit: 40, windowMs: 2000, windows: 12, latencyMs: 3, loops: 2 };
  const total = (r: { windows: { counted: number; rejected: number }[] }, from = 0) => {
    const ws = r.windows.slice(from);
    return { counted: ws.reduce((s, w) => s + w.counted, 0), rejected: ws.reduce((s, w) => s + w.rejected, 0), windows: ws.length };
  };

  test('one process: every window used in full, 0 × 429, all at the window start (no spacing when alone)', async () => {
    const r = await simulateSharedKey({ ...base, processes: 1 });
    expect(r.windows).toEqual(Array(base.windows).fill({ counted: 40, rejected: 0 }));
    // Bursting, not spread: the whole window's calls go within its first few round trips... plus the margin.
    expect(Math.max(...r.offsets)).toBeLessThan(base.windowMs / 2);
  });

  for (const processes of [2, 4, 8]) {
    test(`${processes} processes: ≥ 0.90 of the ceiling, ≤ 5 % 429s, nobody starved`, async () => {
      const r = await simulateSharedKey({ ...base, processes, seed: processes });
      const t = total(r);
      expect(t.counted / (base.limit * t.windows)).toBeGreaterThanOrEqual(0.9);
      expect(t.rejected / (t.counted + t.rejected)).toBeLessThanOrEqual(0.05);
      // Nobody starved: shares are only roughly equal (docs/scale.md, fairness), but each gets a real part.
      for (const calls of r.perProcess) expect(calls).toBeGreaterThan((t.counted / processes) * 0.25);
    });
  }

  test('4 processes with uneven starts (one every half window) still share without a 429 storm', async () => {
    const r = await simulateSharedKey({ ...base, processes: 4, startGapMs: 1000, seed: 9 });
    const t = total(r, 2); // from the window in which the last one joined
    expect(t.counted / (base.limit * t.windows)).toBeGreaterThanOrEqual(0.9);
    expect(t.rejected / (t.counted + t.rejected)).toBeLessThanOrEqual(0.05);
  });
});
