import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AttemptDeadlines } from '../../src/runtime/attempt-deadlines.ts';

/**
 * The undici transport's one deadline timer (attempt-deadlines.ts), on Jest's fake clock (it fakes
 * setTimeout and performance.now alike): each attempt ends at its own deadline, not before, whatever
 * order the attempts came in; an attempt that ended is never expired; and the timer never holds an
 * idle process.
 */
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function attemptAt(ms: number, ended: string[], name: string) {
  return { deadline: performance.now() + ms, expire: () => ended.push(name) };
}

test('attempts end at their own deadlines, a later one added first and an earlier one after it', () => {
  const deadlines = new AttemptDeadlines();
  const ended: string[] = [];
  deadlines.add(attemptAt(300, ended, 'long'));
  deadlines.add(attemptAt(100, ended, 'short'));
  jest.advanceTimersByTime(99);
  expect(ended).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(ended).toEqual(['short']);
  jest.advanceTimersByTime(199);
  expect(ended).toEqual(['short']);
  jest.advanceTimersByTime(1);
  expect(ended).toEqual(['short', 'long']);
});

test('an attempt that ended (deleted) is never expired; the others still are', () => {
  const deadlines = new AttemptDeadlines();
  const ended: string[] = [];
  const done = attemptAt(100, ended, 'done');
  deadlines.add(done);
  deadlines.add(attemptAt(200, ended, 'hung'));
  deadlines.delete(done);
  jest.advanceTimersByTime(1000);
  expect(ended).toEqual(['hung']);
});

test('a deadline between whole milliseconds is not ended early', () => {
  const deadlines = new AttemptDeadlines();
  const ended: string[] = [];
  deadlines.add(attemptAt(100.5, ended, 'a'));
  jest.advanceTimersByTime(100);
  expect(ended).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(ended).toEqual(['a']);
});

test('a process whose last request ended exits on its own, though the timeout is 10 minutes', async () => {
  jest.useRealTimers();
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(__dirname, 'workers', 'idle-exit.ts')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  // A generous bound, far below the 10-minute timer that would hold the process if it were ref'd.
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  expect({ code, out: out.trim() }).toEqual({ code: 0, out: '200' });
}, 90_000);
