/**
 * Entry point of the bundle (action/dist/index.js): the public @actions/core entry, the run context read
 * from the runner's environment (context.ts), and HTTP through undici's EnvHttpProxyAgent so
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured as the runner sets them. Costs measured by
 * bench/action-startup.ts.
 */
import * as core from '@actions/core';
import { EnvHttpProxyAgent } from 'undici';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { readContext } from './context.ts';
import { run } from './main.ts';

const dispatcher = new EnvHttpProxyAgent();
try {
  await run({ core, context: readContext(process.env), runtime: nodeRuntime(undiciTransport({ dispatcher })) });
} finally {
  await dispatcher.close();
}
