/**
 * A signed-in session with a real n8n editor (`n8n start`) that has our package installed: the owner is
 * created by n8n itself from the environment (as `npm run n8n` does), credentials and workflows are
 * imported before the start, and `rest()` calls the same REST API the editor's browser code calls
 * (cookie + browser-id header, as the editor sends them).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createN8nHome, ensureHost, importCredentials, importWorkflow, startN8n } from './n8n-harness.ts';
import type { N8nCredential, N8nHome, N8nServer, N8nWorkflow } from './n8n-harness.ts';

export const OWNER = { email: 'owner@example.com', password: 'MessagingN8n-e2e1' };
const BROWSER_ID = 'messaging-service-e2e-browser';

export interface EditorSession {
	home: N8nHome;
	server: N8nServer;
	/** The auth cookie (`n8n-auth=…`), for a browser context. */
	cookie: string;
	rest<T = unknown>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T>;
	/** Runs an imported workflow from its trigger and waits for the execution; returns its run data. */
	runWorkflow(workflowId: string, triggerName: string, timeoutMs?: number): Promise<{ status: string; runData: Record<string, any[]> }>;
	close(): Promise<void>;
}

export interface EditorOptions {
	tarball: string;
	packageName: string;
	credentials?: N8nCredential[];
	workflows?: N8nWorkflow[];
	userFolder?: string;
}

export async function openEditor(options: EditorOptions): Promise<EditorSession> {
	const hostRequire = createRequire(join(await ensureHost(), 'node_modules', 'n8n', 'package.json'));
	const bcrypt = hostRequire('bcryptjs') as { hashSync(password: string, rounds: number): string };
	const flatted = hostRequire('flatted') as { parse(text: string): any };
	const home = await createN8nHome({
		packageTarball: options.tarball,
		packageName: options.packageName,
		userFolder: options.userFolder,
		keep: false,
		env: {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(OWNER.password, 10),
			N8N_INSTANCE_OWNER_FIRST_NAME: 'Local',
			N8N_INSTANCE_OWNER_LAST_NAME: 'Owner',
		},
	});
	try {
		if (options.credentials?.length) await importCredentials(home, options.credentials);
		if (options.workflows?.length) await importWorkflow(home, options.workflows);
		const server = await startN8n(home, { timeoutMs: 180_000 });
		const login = await fetch(`${server.url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
		if (!login.ok) throw new Error(`POST /rest/login: ${login.status} ${await login.text()}`);
		const cookie = (login.headers.getSetCookie().find((c) => c.startsWith('n8n-auth=')) ?? '').split(';')[0]!;
		if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');

		const rest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
			const response = await fetch(`${server.url}/rest${path}`, {
				method,
				headers: { cookie, 'browser-id': BROWSER_ID, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await response.text();
			if (!response.ok) throw new Error(`${method} /rest${path}: ${response.status} ${text.slice(0, 2000)}`);
			return (JSON.parse(text) as { data: T }).data;
		};

		const runWorkflow = async (workflowId: string, triggerName: string, timeoutMs = 180_000) => {
			const started = await rest<{ executionId: string }>('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom: { name: triggerName } });
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const execution = await rest<{ status: string; finished: boolean; stoppedAt?: string; data: string }>('GET', `/executions/${started.executionId}`);
				if (execution.stoppedAt || ['success', 'error', 'crashed', 'canceled'].includes(execution.status)) {
					const data = flatted.parse(execution.data) as { resultData: { runData: Record<string, any[]> } };
					return { status: execution.status, runData: data.resultData.runData };
				}
				if (Date.now() > deadline) throw new Error(`execution ${started.executionId} still ${execution.status} after ${timeoutMs} ms`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		};

		return {
			home,
			server,
			cookie,
			rest: rest as EditorSession['rest'],
			runWorkflow,
			async close() {
				await server.stop();
				await home.cleanup();
			},
		};
	} catch (error) {
		await home.cleanup();
		throw error;
	}
}
