/** `npm run sandbox`: starts the sandbox on 127.0.0.1:4010 and stays up until SIGINT/SIGTERM. */
import { parseArgs } from 'node:util';
import { demoKeys } from './demo-config.ts';
import { CONTROL_TOKEN_HEADER, start } from './server.ts';

const USAGE = `usage: node sandbox/cli.ts [--port <n>] [--host <addr>] [--config <file.json>] [--idempotency-ttl <seconds>] [--retain-messages <n>] [--control-token <token>]
  env: SANDBOX_PORT sets the port, SANDBOX_CONTROL_TOKEN the control token (default: a random one per start)`;

function usage(message?: string): never {
  if (message) console.error(`sandbox: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

function wholeNumber(name: string, text: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > max) usage(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        config: { type: 'string' },
        'idempotency-ttl': { type: 'string' },
        'retain-messages': { type: 'string' },
        'control-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    usage((e as Error).message);
  }
  if (values.help) usage();
  const port = wholeNumber('--port', values.port ?? process.env.SANDBOX_PORT ?? '4010', 65535);
  const ttl = values['idempotency-ttl'] === undefined ? undefined : wholeNumber('--idempotency-ttl', values['idempotency-ttl'], 10 * 365 * 86400);
  const retainMessages = values['retain-messages'] === undefined ? undefined : wholeNumber('--retain-messages', values['retain-messages'], Number.MAX_SAFE_INTEGER);
  const sb = await start({
    port,
    host: values.host,
    config: values.config,
    controlToken: values['control-token'] ?? process.env.SANDBOX_CONTROL_TOKEN,
    idempotencyTtl: ttl,
    retainMessages,
  });
  const width = Math.max(...demoKeys.map((k) => k.key.length));
  const { idempotency_retention_seconds: retention, retain_messages: retained } = sb.control.config();
  console.log(`Messaging sandbox listening: ${sb.url}`);
  console.log(`Inbox (what the sandbox "delivered"): ${sb.origin}/`);
  console.log(`Control token: ${sb.controlToken}   (send as "${CONTROL_TOKEN_HEADER}: <token>" on POST/DELETE /__sandbox/...)`);
  console.log(`Control routes: ${sb.origin}/__sandbox/ledger | /ledger/summary | /faults | /reset | /config`);
  console.log(`Idempotency keys are kept ${retention} s after their first answer.`);
  console.log(`The newest ${retained} messages are kept in full (ledger, inbox, GET /messages/{id}); counts cover all of them.`);
  if (values.config) console.log(`Config: demo config merged with ${values.config}`);
  console.log('\nDemo keys (send as "Authorization: Bearer <key>"):');
  for (const k of demoKeys) console.log(`  ${k.key.padEnd(width)}  ${k.demonstrates}`);
  console.log(`\nTry: curl -s ${sb.url}/account -H "Authorization: Bearer sk_test_demo_ok"`);
  const stop = (): void => {
    void sb.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: NodeJS.ErrnoException) => {
  console.error(`sandbox: ${e.message}${e.code === 'EADDRINUSE' ? ' Here: --port <n>.' : ''}`);
  process.exit(1);
});
