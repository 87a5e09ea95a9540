/**
 * Entry point of the bundle (action/dist/index.js). Three choices, each measured by
 * bench/action-startup.ts (numbers in the README):
 * - core: `coreLite`, @actions/core's own command / file-command / summary modules without its entry
 *   module, which eagerly loads the OIDC client, @actions/http-client and undici 6;
 * - context: read from GITHUB_EVENT_PATH and GITHUB_* by context.ts — the fields of @actions/github's
 *   `context` — instead of importing @actions/github (Octokit, a second http-client, undici 6);
 * - runtime: Node's built-in fetch (src/runtime/fetch-transport.ts) instead of bundling the undici 8 package.
 * main.ts takes any `core`/context/runtime of the same shape: `import * as core from '@actions/core'`
 * and `import { context } from '@actions/github'` drop in unchanged.
 */
import { readContext } from './context.ts';
import { coreLite } from './core-lite.ts';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { run } from './main.ts';

await run({ core: coreLite, context: readContext(process.env), runtime: nodeRuntime(fetchTransport()) });
