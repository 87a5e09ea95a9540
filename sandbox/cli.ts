/** `npm run sandbox`: starts the sandbox on 127.0.0.1:4010 and stays up until SIGINT/SIGTERM. */
import { demoKeys } from './demo-config.ts';
import { start } from './server.ts';

function usage(): never {
  console.error('usage: node sandbox/cli.ts [--port <n>] [--host <addr>] [--config <file.json>]   (env SANDBOX_PORT also sets the port)');
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let port = process.env.SANDBOX_PORT ? Number(process.env.SANDBOX_PORT) : 4010;
  let host = '127.0.0.1';
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined) usage();
      return v;
    };
    if (flag === '--port') port = Number(value());
    else if (flag === '--host') host = value();
    else if (flag === '--config') config = value();
    else if (flag === '--help' || flag === '-h') usage();
    else usage();
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage();
  const sb = await start({ port, host, config });
  const width = Math.max(...demoKeys.map((k) => k.key.length));
  console.log(`Messaging sandbox listening: ${sb.url}`);
  console.log(`Control routes: ${sb.origin}/__sandbox/ledger | /ledger/summary | /faults | /reset | /config`);
  if (config) console.log(`Config: demo config merged with ${config}`);
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

main().catch((e: unknown) => {
  console.error(`sandbox: ${(e as Error).message}`);
  process.exit(1);
});
