import { start } from '../../sandbox/server.ts';
import type { Sandbox, SandboxConfigInput } from '../../sandbox/server.ts';
import type { INodeExecutionData } from 'n8n-workflow';

export const DEMO_KEY = 'sk_test_demo_ok';

/** A sandbox for a node suite; on `clock` when given (see virtual-time.ts). */
export async function startSandbox(config?: SandboxConfigInput, clock?: () => number): Promise<Sandbox> {
	return await start({ port: 0, config: { job_rows_per_second: 5000, ...config }, clock });
}

export function credentialsFor(sb: Sandbox, apiKey = DEMO_KEY) {
	return { apiKey, baseUrl: sb.url };
}

/** n recipients as items: { email, name, n }. */
export function people(n: number, from = 0): { email: string; name: string; n: number }[] {
	return Array.from({ length: n }, (_, i) => ({ email: `user${from + i}@example.com`, name: `User ${from + i}`, n: from + i }));
}

/** Send Batch parameters mapping each item by expression. */
export const batchParameters = {
	resource: 'message',
	operation: 'sendBatch',
	channel: 'email',
	to: '={{ $json.email }}',
	subject: '=Hello {{ $json.name }}',
	body: '=Body for {{ $json.n }}',
};

/** The `item` of an item's pairedItem (a single pairing). */
export function pairedIndex(item: INodeExecutionData): number | undefined {
	const p = item.pairedItem;
	if (p === undefined || typeof p === 'number') return p;
	return Array.isArray(p) ? (p.length === 1 ? p[0]!.item : undefined) : p.item;
}

/** What n8n needs to route an item to the error output: json keys only error/message/details. */
export function isRoutableErrorJson(json: Record<string, unknown>, inputKeys: string[] = []): boolean {
	const own = Object.keys(json).filter((k) => !inputKeys.includes(k));
	return typeof json.error === 'string' && own.every((k) => ['error', 'message', 'details'].includes(k));
}

/**
 * A node error as n8n shows it: the title (`message`, at most 80 characters, the code first) and then the
 * description, as one text to match; the title's words are never repeated in the description.
 */
export function shownError(error: { message: string; description?: string | null } | undefined): string {
	if (!error) throw new Error('the node did not fail');
	if (error.message.length > 80) throw new Error(`title longer than 80 characters: ${error.message}`);
	const title = error.message.replace(/…$/, '');
	if (error.description?.includes(title.slice(title.indexOf(':') + 2)) && !error.message.endsWith('…')) throw new Error(`the description repeats the title: ${error.description}`);
	return `${error.message} ${error.description ?? ''}`.trim();
}
