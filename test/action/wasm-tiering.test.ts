import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = pathToFileURL(join(__dirname, '..', '..', 'action', 'src', 'wasm-tiering.ts')).href;

/**
 * A child node that makes 400 undici requests to a local server (undici parses each answer with its
 * WebAssembly llhttp) and reports V8's peak compiler memory (peak_malloced_memory), in MB. The flags are
 * V8's own, so only a real process shows them.
 */
function peakCompilerMB(keep: boolean, nodeFlags: string[] = []): number {
  const script = `
    import { createServer } from 'node:http';
    import { getHeapStatistics } from 'node:v8';
    import { request } from 'undici';
    import { keepWasmOnBaseline } from ${JSON.stringify(MODULE)};
    if (${keep}) keepWasmOnBaseline();
    const answer = JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ id: 'job_' + i, status: 'completed' })) });
    const server = createServer((req, res) => { req.resume(); req.on('end', () => res.end(answer)); });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = 'http://127.0.0.1:' + server.address().port + '/';
    for (let i = 0; i < 400; i++) await (await request(url, { method: 'POST', body: '{}' })).body.text();
    server.close();
    console.log(getHeapStatistics().peak_malloced_memory / 1e6);`;
  return Number(execFileSync(process.execPath, [...nodeFlags, '--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }).trim());
}

describe("undici's WebAssembly parser stays on baseline code (the action entry sets it before any call)", () => {
  test('no optimizing recompilation of the parser, where by default it takes over 15 MB of compiler memory', () => {
    expect(peakCompilerMB(true)).toBeLessThan(10);
    expect(peakCompilerMB(false)).toBeGreaterThan(15);
  });

  test("a user's own wasm tiering flag wins", () => {
    expect(peakCompilerMB(true, ['--wasm-dynamic-tiering'])).toBeGreaterThan(15);
  });
});
