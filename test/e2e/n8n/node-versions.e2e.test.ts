/**
 * Node versions inside a REAL n8n 2.41.1: a workflow saved with version 1 (fixtures/workflow-v1-saved.json,
 * the operation omitted where it was version 1's default, as n8n saves it) is imported and runs as it
 * did; the same workflow at version 2 (fixtures/workflow-v2.json) runs with version 2's defaults: its
 * Contact node with no operation lists. Set MSGSVC_SKIP_N8N_E2E=1 to skip (first run installs the host).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerRows } from '../../support/ledger-rows.ts';
import { realN8nSkipped } from '../../support/system.ts';
import {
	executeWorkflow,
	importWorkflow,
	MESSAGING_PACKAGE as PACKAGE,
	outputItems,
	type N8nWorkflow,
	usePackagedN8n,
} from './n8n-harness.ts';

const MINUTES = 60_000;
const describeE2e = realN8nSkipped() ? describe.skip : describe;

function fixture<T>(name: string): T {
	return JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;
}

describeE2e('node versions in a real n8n 2.41.1', () => {
	const suite = usePackagedN8n({ name: 'versions', sandbox: { job_rows_per_second: 2000 } });

	async function run(file: string, id: string) {
		const workflow = fixture<Omit<N8nWorkflow, 'id'>>(file);
		await importWorkflow(suite.home, { ...workflow, id } as N8nWorkflow);
		const result = await executeWorkflow(suite.home, id, { timeoutMs: 4 * MINUTES });
		expect(result.status).toBe('success');
		return result.runData;
	}

	test(
		'a workflow saved with version 1 runs unchanged: Send sends per item, the Contact node with no operation imports',
		async () => {
			const workflow = fixture<N8nWorkflow>('workflow-v1-saved.json');
			const messaging = workflow.nodes.filter((node) => node.type === `${PACKAGE}.messagingService`);
			expect(messaging.map((node) => [node.typeVersion, (node.parameters as Record<string, unknown>).operation])).toEqual([
				[1, undefined],
				[1, undefined],
				[1, 'getAll'],
			]);

			const runData = await run('workflow-v1-saved.json', 'msgSavedV1Wf');
			expect(outputItems(runData, 'Send').map((j) => j.to)).toEqual(['ada@example.com', 'grace@example.com']);
			const [summary] = outputItems(runData, 'Import Contacts');
			expect(summary).toMatchObject({ completed: true, totals: { contacts: 2, processed: 2, failed: 0 } });
			expect(outputItems(runData, 'List Contacts').map((j) => j.email).sort()).toEqual(['ada@example.com', 'grace@example.com']);
			const ledger = ledgerRows(suite.sb);
			expect(ledger.messages.map((m) => [m.to, m.body])).toEqual([
				['ada@example.com', 'Hi Ada'],
				['grace@example.com', 'Hi Grace'],
			]);
			expect(ledger.contacts.map((c) => c.email)).toEqual(['ada@example.com', 'grace@example.com']);
		},
		10 * MINUTES,
	);

	test(
		'version 2: Send sends per item, Import maps automatically through the resource mapper, the Contact node with no operation lists',
		async () => {
			const runData = await run('workflow-v2.json', 'msgV2Wf');
			expect(outputItems(runData, 'Send').map((j) => j.to)).toEqual(['ada@example.com', 'grace@example.com']);
			expect(outputItems(runData, 'Import Contacts')[0]).toMatchObject({ completed: true, totals: { contacts: 2, processed: 2, failed: 0 } });
			expect(outputItems(runData, 'List Contacts').map((j) => j.email).sort()).toEqual(['ada@example.com', 'grace@example.com']);
			const ledger = ledgerRows(suite.sb);
			expect(ledger.messages).toHaveLength(2);
			// Listing wrote nothing: one import job, two contacts.
			expect([ledger.jobs.length, ledger.contacts.length]).toEqual([1, 2]);
		},
		10 * MINUTES,
	);
});
