/**
 * `npm run bench:n8n`: our node against n8n's own HTTP Request node, in a real n8n 2.41.1 (`n8n execute`),
 * against one sandbox key with one rate ceiling (default 45 calls per 60 s window). Both get the same N
 * input items (default 2,000 e-mails) from a Code node:
 * - ours: Message → Send (`sendBatch`, the built package, installed as n8n installs community packages);
 * - theirs: HTTP Request, `POST /messages` per item, as a user builds it without our node (On Error:
 *   continue, so the run ends and its failures can be counted).
 * Calls and their statuses are counted by a pass-through proxy in front of the sandbox; messages by the
 * sandbox's ledger; wall time from n8n's own startedAt/stoppedAt. Prints a table and the ratios, and writes
 * them to bench/results-n8n.json, where README's "Measured" table takes its figures from (test/readme.test.ts).
 * Flags: --items N (2000), --big N (12345: a second run of ours only), --ceiling C (45).
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { demoConfig } from '../sandbox/demo-config.ts';
import { machine } from './results.ts';
import { start } from '../sandbox/server.ts';
import { createN8nHome, executeWorkflow, importCredentials, importWorkflow, killAll, repoRoot, run } from '../test/e2e/n8n/n8n-harness.ts';
import type { N8nWorkflow } from '../test/e2e/n8n/n8n-harness.ts';

const PACKAGE = 'n8n-nodes-messaging-service';
const KEY = 'sk_test_demo_ok';

/** Forwards every request to the sandbox and counts answers by status. */
async function countingProxy(target: string): Promise<{ url: string; counts: Map<number, number>; reset(): void; close(): Promise<void> }> {
	const counts = new Map<number, number>();
	const upstream = new URL(target);
	const server = createServer((req, res) => {
		const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
			counts.set(answer.statusCode ?? 0, (counts.get(answer.statusCode ?? 0) ?? 0) + 1);
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		forward.on('error', () => res.destroy());
		req.pipe(forward);
	});
	server.keepAliveTimeout = 60_000;
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		counts,
		reset: () => counts.clear(),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

function workflow(id: string, items: number, target: Record<string, unknown>): N8nWorkflow {
	return {
		id,
		name: id,
		nodes: [
			{ id: `${id}0`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: `${id}1`,
				name: 'Recipients',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return Array.from({ length: ${items} }, (_, n) => ({ json: { email: \`user\${n}@example.com\`, n } }));` },
			},
			{ id: `${id}2`, name: 'Send', position: [440, 0], ...target } as N8nWorkflow['nodes'][number],
		],
		connections: { Start: { main: [[{ node: 'Recipients', type: 'main', index: 0 }]] }, Recipients: { main: [[{ node: 'Send', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const ours = {
	type: `${PACKAGE}.messagingService`,
	typeVersion: 1,
	parameters: { resource: 'message', operation: 'sendBatch', channel: 'email', to: '={{ $json.email }}', subject: 'Hello', body: '=Message {{ $json.n }}', options: { maxWaitSeconds: 600 } },
	credentials: { messagingServiceApi: { id: 'benchKey', name: 'Messaging Service (bench)' } },
};

function httpRequestNode(baseUrl: string) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${baseUrl}/messages`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ channel: "email", to: [$json.email], subject: "Hello", body: "Message " + $json.n }) }}',
			options: {},
		},
		credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'Bearer (bench)' } },
	};
}

export interface Row {
	label: string;
	items: number;
	calls: number;
	rateLimited: number;
	delivered: number;
	wallMs: number;
}

async function main(): Promise<void> {
	const { values } = parseArgs({ options: { items: { type: 'string', default: '2000' }, big: { type: 'string', default: '12345' }, ceiling: { type: 'string', default: '45' } } });
	const items = Number(values.items);
	const big = Number(values.big);
	const ceiling = Number(values.ceiling);
	const work = await mkdtemp(join(tmpdir(), 'bench-n8n-'));
	const accounts = demoConfig.accounts.map((a) => (a.id === 'acc_demo' ? { ...a, rate_limit: ceiling, credits: 10_000_000 } : a));
	const sandbox = await start({ port: 0, host: '127.0.0.1', config: { window_seconds: 60, accounts } });
	const proxy = await countingProxy(sandbox.url);
	try {
		const packed = await run(join(repoRoot(), 'node_modules', '.bin', 'node'), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', work], { cwd: repoRoot(), timeoutMs: 360_000 });
		if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
		const tarball = JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string;
		const home = await createN8nHome({ packageTarball: tarball, packageName: PACKAGE });
		await importCredentials(home, [
			{ id: 'benchKey', name: 'Messaging Service (bench)', type: 'messagingServiceApi', data: { apiKey: KEY, baseUrl: proxy.url } },
			{ id: 'benchHeader', name: 'Bearer (bench)', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${KEY}` } },
		]);
		const runs: [string, N8nWorkflow][] = [
			[`Messaging Service node, ${items.toLocaleString('en')} messages`, workflow('benchOurs', items, ours)],
			[`HTTP Request node, ${items.toLocaleString('en')} messages`, workflow('benchHttp', items, httpRequestNode(proxy.url))],
			[`Messaging Service node, ${big.toLocaleString('en')} messages`, workflow('benchOursBig', big, ours)],
		];
		await importWorkflow(home, runs.map(([, wf]) => wf));
		const rows: Row[] = [];
		for (const [label, wf] of runs) {
			sandbox.control.reset();
			proxy.reset();
			const result = await executeWorkflow(home, wf.id!, { timeoutMs: 20 * 60_000, allowFailure: true });
			const calls = [...proxy.counts.values()].reduce((a, b) => a + b, 0);
			rows.push({
				label,
				items: wf.id === 'benchOursBig' ? big : items,
				calls,
				rateLimited: proxy.counts.get(429) ?? 0,
				delivered: sandbox.control.summary().messages,
				wallMs: Date.parse(result.raw.stoppedAt) - Date.parse(result.raw.startedAt),
			});
		}
		await home.cleanup();
		console.log(`ceiling: ${ceiling} calls per 60 s window, one key; n8n 2.41.1 (n8n execute)\n`);
		console.log('| run | calls | 429s | messages delivered | wall time |');
		console.log('|---|---|---|---|---|');
		for (const r of rows) console.log(`| ${r.label} | ${r.calls.toLocaleString('en')} | ${r.rateLimited.toLocaleString('en')} | ${r.delivered.toLocaleString('en')} of ${r.items.toLocaleString('en')} | ${(r.wallMs / 1000).toFixed(1)} s |`);
		await writeFile(join(repoRoot(), 'bench', 'results-n8n.json'), `${JSON.stringify({ machine: machine(), ceilingPerMinute: ceiling, rows }, null, 2)}\n`);
		const [node, http] = rows as [Row, Row];
		console.log(`\nratios at ${items.toLocaleString('en')} messages (HTTP Request ÷ ours): calls ${(http.calls / node.calls).toFixed(0)}×, 429s ${http.rateLimited} vs ${node.rateLimited}, delivered ${(node.delivered / Math.max(1, http.delivered)).toFixed(1)}× more by ours, wall time ${(http.wallMs / node.wallMs).toFixed(2)}×`);
	} finally {
		await killAll();
		await proxy.close();
		await sandbox.close();
		await rm(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
