/** `npm run sandbox` options: the control token (flag or env), the idempotency TTL, message retention, and what the banner prints. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/server.ts';
import { call, expectError } from './helpers.ts';

/** Starts the CLI and resolves with its banner and a Sandbox-shaped handle for the helpers. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ out: string; sb: Sandbox; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', '0', ...args], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d.toString();
      if (out.includes('Try: curl')) resolve();
    });
  });
  const origin = /listening: (http:\/\/\S+)\/v1/.exec(out)![1]!;
  const controlToken = /Control token: (\S+)/.exec(out)![1]!;
  const sb = { url: `${origin}/v1`, origin, controlToken } as Sandbox;
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
  return { out, sb, stop };
}

test('--control-token and --idempotency-ttl: the banner prints the token and the inbox URL; the config carries the TTL', async () => {
  const { out, sb, stop } = await cli(['--control-token', 'cli-token-123', '--idempotency-ttl', '7']);
  try {
    expect(sb.controlToken).toBe('cli-token-123');
    expect(out).toContain(`Inbox (what the sandbox "delivered"): ${sb.origin}/`);
    expect(out).toContain('kept 7 s');
    expect((await call(sb, 'GET', '/__sandbox/config')).body.idempotency_retention_seconds).toBe(7);
    expectError(await call(sb, 'POST', '/__sandbox/reset', { controlToken: 'cli-token-12' }), 401, 'invalid_control_token');
    expect((await call(sb, 'POST', '/__sandbox/reset')).status).toBe(200);
  } finally {
    expect(await stop()).toBe(0);
  }
});

test('SANDBOX_CONTROL_TOKEN sets the token; without any, each start prints a fresh random one', async () => {
  const a = await cli([], { SANDBOX_CONTROL_TOKEN: 'env-token-456' });
  const b = await cli([]);
  const c = await cli([]);
  try {
    expect(a.sb.controlToken).toBe('env-token-456');
    expect(b.sb.controlToken).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(b.sb.controlToken).not.toBe(c.sb.controlToken);
    expect((await call(a.sb, 'POST', '/__sandbox/reset')).status).toBe(200);
  } finally {
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  }
});

test('a bad --idempotency-ttl is refused with the usage', async () => {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', '0', '--idempotency-ttl', 'soon'], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/--idempotency-ttl must be a whole number/);
});

test('--retain-messages sets how many messages are kept in full; the banner says so', async () => {
  const { out, sb, stop } = await cli(['--retain-messages', '2']);
  try {
    expect(out).toContain('The newest 2 messages are kept in full');
    expect((await call(sb, 'GET', '/__sandbox/config')).body.retain_messages).toBe(2);
    await call(sb, 'POST', '/messages/batch', { body: { messages: ['a', 'b', 'c'].map((body) => ({ channel: 'whatsapp', to: '+4915112345678', body })) } });
    const page = (await call(sb, 'GET', '/__sandbox/ledger', { key: null })).body;
    expect({ bodies: page.data.map((m: { body: string }) => m.body), messages: page.totals.messages }).toEqual({ bodies: ['b', 'c'], messages: 3 });
  } finally {
    expect(await stop()).toBe(0);
  }
});

test('a bad --retain-messages is refused with the usage', async () => {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'sandbox/cli.ts', '--port', '0', '--retain-messages', '1.5'], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/--retain-messages must be a whole number/);
});
