/**
 * One virtual clock for the node, the shared client inside it and the sandbox. Jest fakes only Date
 * (timers and IO stay real, so HTTP works), and n8n-workflow's `sleep`, through which the node does all
 * its waiting, moves that Date instead of waiting and records the wait. A suite opts in with both:
 *
 *   jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: (ms: number) => jest.requireActual<typeof import('./virtual-time.ts')>('./virtual-time.ts').virtualSleep(ms) }));
 *   useVirtualTime();
 *
 * and starts its sandbox with `clock: () => Date.now()`, so rate windows, Retry-After and jobs run on
 * the same clock as the node's limiter and job waiter.
 */

/** A wait the node asked for: when (virtual ms) and how long. */
export interface Wait {
  at: number;
  ms: number;
}

/** Every wait since the current test began, in order. */
export const waits: Wait[] = [];

/** Ends at `at + ms` (or later, if another wait already moved the clock further): time never runs back. */
export async function virtualSleep(ms: number): Promise<void> {
  const at = Date.now();
  waits.push({ at, ms });
  await Promise.resolve();
  jest.setSystemTime(Math.max(Date.now(), at + ms));
}

/** Virtual Date for the enclosing suite, from `start` (ms since the epoch); `waits` is emptied per test. */
export function useVirtualTime(start = Date.UTC(2030, 0, 1, 0, 0, 0, 250)): void {
  beforeAll(() => {
    jest.useFakeTimers({
      now: start,
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
  });
  afterAll(() => {
    jest.useRealTimers();
  });
  beforeEach(() => {
    waits.length = 0;
  });
}

export const waitedMs = (): number => waits.reduce((sum, w) => sum + w.ms, 0);
