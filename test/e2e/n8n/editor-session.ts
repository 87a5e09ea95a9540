/**
 * A signed-in session with a real n8n editor (`n8n start`) that has our package installed: the owner is
 * created by n8n itself from the environment (as `npm run n8n` does), credentials and workflows are
 * imported before the start, and `rest()` calls the same REST API the editor's browser code calls
 * (cookie + browser-id header, as the editor sends them).
 */
import { createN8nHome, ensureHost, importCredentials, importWorkflow, N8nRest, ownerEnv, startN8n } from './n8n-harness.ts';
import type { N8nCredential, N8nHome, N8nServer, N8nWorkflow } from './n8n-harness.ts';

export const OWNER = { email: 'owner@example.com', password: 'MessagingN8n-e2e1' };

export interface EditorSession {
	home: N8nHome;
	server: N8nServer;
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
	await ensureHost();
	const home = await createN8nHome({ packageTarball: options.tarball, packageName: options.packageName, userFolder: options.userFolder, keep: false });
	try {
		if (options.credentials?.length) await importCredentials(home, options.credentials);
		if (options.workflows?.length) await importWorkflow(home, options.workflows);
		const server = await startN8n(home, { env: ownerEnv(home, OWNER), timeoutMs: 180_000 });
		const api = new N8nRest(server.url, home);
		await api.login(OWNER);
		return {
			home,
			server,
			rest: (method, path, body) => api.call(method, `/rest${path}`, body),
			async runWorkflow(workflowId, triggerName, timeoutMs = 180_000) {
				const execution = await api.waitForExecution(await api.runWorkflow(workflowId, triggerName), timeoutMs);
				return { status: execution.status, runData: execution.data?.resultData?.runData ?? {} };
			},
			async close() {
				try {
					await server.stop();
				} finally {
					await home.cleanup();
				}
			},
		};
	} catch (error) {
		await home.cleanup();
		throw error;
	}
}
