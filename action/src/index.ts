/**
 * Entry point of the bundle (action/dist/index.js): the public @actions/core entry, the run context read
 * from the runner's environment (context.ts), and HTTP through undici's EnvHttpProxyAgent so the `proxy`
 * input, else HTTPS_PROXY / HTTP_PROXY, and NO_PROXY are honoured (proxy.ts). Costs measured by
 * bench/action-startup.ts. The heap stops growing past what is live before
 * any file is read (heap-growth.ts), and undici's HTTP parser stays on V8's baseline WebAssembly code
 * (wasm-tiering.ts).
 */
import * as core from '@actions/core';
import type { EnvHttpProxyAgent } from 'undici';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { readContext } from './context.ts';
import { run } from './main.ts';
import { proxyDispatcher } from './proxy.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { keepWasmOnBaseline } from './wasm-tiering.ts';

boundHeapGrowth();
keepWasmOnBaseline();
let dispatcher: EnvHttpProxyAgent | undefined;
try {
  await run({ core, context: readContext(process.env), runtime: (proxy) => nodeRuntime(undiciTransport({ dispatcher: (dispatcher = proxyDispatcher(proxy)) })) });
} finally {
  await dispatcher?.close();
}
