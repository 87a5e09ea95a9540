/**
 * Crashing n8n the way a host dies (kill -9 of the process and its task runner), at a moment chosen by
 * state — the sandbox ledger shows some chunks committed — never by a fixed sleep.
 */
import type { N8nServer } from './server.ts';

/** Polls `check` until it returns a value other than undefined/false; fails after `timeoutMs` naming `what`. */
export async function waitUntil<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 120_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** SIGKILL to the server's whole process group (n8n and its task runner); resolves once n8n is gone. */
export async function killHard(server: N8nServer): Promise<void> {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) throw new Error('killHard: n8n had already exited');
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}
