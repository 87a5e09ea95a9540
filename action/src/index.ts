/**
 * Entry point of the bundle (action/dist/index.js): the real @actions/core and the runner's context.
 * The context is read from GITHUB_EVENT_PATH and GITHUB_* by context.ts — the same fields as
 * @actions/github's `context` — because importing @actions/github for it alone costs ~1 MB of bundle
 * (Octokit, a second http-client and undici 6); see bench/action-startup.ts.
 */
import * as core from '@actions/core';
import { readContext } from './context.ts';
import { run } from './main.ts';

await run({ core, context: readContext(process.env) });
