import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = pathToFileURL(join(__dirname, '..', '..', 'action', 'src', 'heap-growth.ts')).href;

/**
 * A child node that holds a sliding window of short-lived rows (as a streamed file does) and reports the
 * young generation's largest size, in MB. The flags are V8's own, so only a real process shows them.
 */
function youngGenerationMB(bound: boolean, nodeFlags: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { boundHeapGrowth } from ${JSON.stringify(MODULE)};
    if (${bound}) boundHeapGrowth();
    const window = [];
    let largest = 0;
    for (let i = 0; i < 1500; i++) {
      window.push(Array.from({ length: 1000 }, (_, j) => 'row ' + i + ' ' + j + ' ' + 'x'.repeat(20)));
      if (window.length > 20) window.shift();
      if (i % 25 === 0) largest = Math.max(largest, getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
    }
    console.log(largest / 1e6);`;
  return Number(execFileSync(process.execPath, [...nodeFlags, '--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

describe('heap growth bound (the action entry sets it before reading any file)', () => {
  test('the young generation stays small under a stream of short-lived rows, where by default it grows', () => {
    expect(youngGenerationMB(true)).toBeLessThanOrEqual(24);
    expect(youngGenerationMB(false)).toBeGreaterThan(64);
  });

  test("a user's own young-generation flag wins", () => {
    expect(youngGenerationMB(true, ['--max-semi-space-size=64'])).toBeGreaterThan(64);
  });
});
