/**
 * Time for a sandbox under test: `now` is the sandbox's clock, `sleep` how its `slow` fault holds a
 * request. Nothing moves unless the test moves it, so every timing assertion is exact.
 */
export class VirtualClock {
  private t: number;
  /** Every hold asked for, in ms, in order. */
  readonly sleeps: number[] = [];
  private gate: { opened: Promise<void>; open: () => void } | undefined;

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  /** Moves the clock to `ms` since the epoch (forward only: a clock that runs back is another test). */
  set(ms: number): void {
    if (ms < this.t) throw new Error(`the virtual clock runs forward only (${ms} < ${this.t})`);
    this.t = ms;
  }

  advance(ms: number): void {
    this.set(this.t + ms);
  }

  /**
   * Records the hold, waits for the gate if one is shut, then moves the clock past the hold. The move
   * is never synchronous: a caller that forgot to await its hold sees the clock unmoved.
   */
  readonly sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    await (this.gate?.opened ?? Promise.resolve());
    this.t += ms;
  };

  /** From now on a hold waits until the returned function is called (a request the test keeps in flight). */
  shut(): () => void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.gate = { opened, open };
    return () => {
      this.gate = undefined;
      open();
    };
  }
}

/** Polls `ready` until it holds: real time, bounded generously, never a fixed sleep before a check. */
export async function until(ready: () => boolean, what: string, boundMs = 30_000): Promise<void> {
  const giveUp = Date.now() + boundMs;
  while (!ready()) {
    if (Date.now() > giveUp) throw new Error(`timed out after ${boundMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
