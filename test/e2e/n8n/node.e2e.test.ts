/**
 * The Messaging Service node inside a REAL n8n 2.41.1 (another OS process): our package is built and
 * packed, installed as n8n's community-package installer does, a credential (sandbox URL + demo key) and
 * the example workflow (examples/n8n-workflow.json: Manual Trigger → Code → Send Batch with the error
 * output; Code → Contact Import with Wait → Contact Get Many) are imported, and `n8n execute` runs it
 * against a sandbox this test starts on 127.0.0.1. Set MSGSVC_SKIP_N8N_E2E=1 to skip (first run installs
 * the n8n host: minutes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerRows } from '../../support/ledger-rows.ts';
import {
	executeWorkflow,
	importCredentials,
	importWorkflow,
	MESSAGING_PACKAGE as PACKAGE,
	outputItems,
	repoRoot,
	stopwatch,
	type N8nWorkflow,
	usePackagedN8n,
} from './n8n-harness.ts';
import { realN8nSkipped } from '../../support/system.ts';

const MINUTES = 60_000;
const skip = realN8nSkipped();
const describeE2e = skip ? describe.skip : describe;

describeE2e('the Messaging Service node in a real n8n 2.41.1', () => {
	const { timings, time } = stopwatch();
	const suite = usePackagedN8n({ name: 'node', sandbox: { job_rows_per_second: 2000 }, time });
	afterAll(() => console.log(`n8n node e2e timings (ms): ${JSON.stringify(timings)}`));

	test(
		'example workflow: Send Batch routes invalid items to the error output, Contact Import waits, Get Many lists',
		async () => {
			const example = JSON.parse(readFileSync(join(repoRoot(), 'examples', 'n8n-workflow.json'), 'utf8')) as N8nWorkflow;
			await time('importWorkflow', () => importWorkflow(suite.home, { ...example, id: 'msgExampleWf' }));

			const result = await time('execute', () => executeWorkflow(suite.home, 'msgExampleWf', { timeoutMs: 4 * MINUTES }));
			const { runData } = result;

			// Send Batch: 6 messages sent, 2 items on the error output, each paired with its input item.
			const sent = outputItems(runData, 'Send Batch', 0);
			const failed = outputItems(runData, 'Send Batch', 1);
			expect(sent.map((j) => j.to)).toEqual(['ada@example.com', 'grace@example.com', '+4915112345678', 'alan@example.com', 'barbara@example.com', '+4915187654321']);
			expect(sent.every((j) => typeof j.id === 'string' && (j.id as string).startsWith('msg_'))).toBe(true);
			expect(failed).toHaveLength(2);
			expect(failed[0]!.error).toMatch(/^validation_failed: /);
			expect(failed[0]!.message).toMatch(/ — item 3$/);
			expect(failed[1]!.message).toMatch(/ — item 5$/);
			expect(failed.map((j) => (j.details as Record<string, unknown>).param)).toEqual(['to', 'to']);
			const errorRun = runData['Send Batch']!.at(-1);
			expect(errorRun.data.main[1].map((item: { pairedItem: { item: number } }) => item.pairedItem.item)).toEqual([3, 5]);
			// n8n delivered them down the two branches.
			expect(outputItems(runData, 'Sent')).toHaveLength(6);
			expect(outputItems(runData, 'Failed').map((j) => j.name)).toEqual(['Broken', 'Short Number']);

			// Contact Import with Wait: one summary, the refused row mapped back to its item.
			const [summary] = outputItems(runData, 'Import Contacts');
			expect(summary).toMatchObject({ completed: true, totals: { contacts: 26, processed: 26, failed: 1, jobs: 1, completedJobs: 1 } });
			expect((summary!.rowErrors as Array<Record<string, unknown>>).map((r) => [r.itemIndex, r.code])).toEqual([[25, 'validation_failed']]);
			expect(outputItems(runData, 'Refused Rows').map((j) => j.first_name)).toEqual(['No Address']);
			const listed = outputItems(runData, 'List Contacts');
			expect(listed).toHaveLength(25);

			// The service's ledger: exactly what the outputs say, no duplicates.
			const ledger = ledgerRows(suite.sb);
			expect(ledger.messages.map((m) => m.id).sort()).toEqual(sent.map((j) => j.id).sort());
			expect(ledger.contacts).toHaveLength(25);
			expect(suite.sb.control.summary().duplicates_detected).toBe(0);
			// The key never shows in the run n8n printed.
			expect(result.stdout).not.toContain('sk_test_demo_ok');
		},
		10 * MINUTES,
	);

	test(
		"README's quickstart workflow (examples/n8n-quickstart.json) runs as pasted: 2 sent, the typo on the error output",
		async () => {
			const quickstart = JSON.parse(readFileSync(join(repoRoot(), 'examples', 'n8n-quickstart.json'), 'utf8')) as N8nWorkflow;
			await importWorkflow(suite.home, { ...quickstart, id: 'msgQuickstartWf' });
			const result = await time('execute (quickstart)', () => executeWorkflow(suite.home, 'msgQuickstartWf', { timeoutMs: 4 * MINUTES }));
			const sent = outputItems(result.runData, 'Sent');
			expect(sent.map((j) => j.to)).toEqual(['ada@example.com', '+4915112345678']);
			const failed = outputItems(result.runData, 'Failed or Unknown');
			expect(failed).toHaveLength(1);
			expect((failed[0]!.details as Record<string, unknown>).outcome).toBe('failed');
			expect((failed[0]!.details as Record<string, unknown>).param).toBe('to');
			const delivered = ledgerRows(suite.sb).messages.map((m) => m.id);
			for (const j of sent) expect(delivered).toContain(j.id);
		},
		5 * MINUTES,
	);

	test(
		'a revoked key fails the node with the code, the remedy and the item index; the key is not printed',
		async () => {
			await importCredentials(suite.home, [{ id: 'msgRevokedCred', name: 'Messaging Service (revoked)', type: 'messagingServiceApi', data: { apiKey: 'sk_test_demo_revoked', baseUrl: suite.sb.url } }]);
			const credentials = { messagingServiceApi: { id: 'msgRevokedCred', name: 'Messaging Service (revoked)' } };
			await importWorkflow(suite.home, {
				id: 'msgRevokedWf',
				name: 'revoked key',
				nodes: [
					{ id: 'r0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
					{ id: 'r1', name: 'Account', type: `${PACKAGE}.messagingService`, typeVersion: 1, position: [220, 0], parameters: { resource: 'account', operation: 'get' }, credentials },
				],
				connections: { Start: { main: [[{ node: 'Account', type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			const result = await time('execute (revoked)', () => executeWorkflow(suite.home, 'msgRevokedWf', { allowFailure: true }));
			expect(result.status).toBe('error');
			expect(result.error?.message).toMatch(/^api_key_revoked: /);
			expect(`${result.error?.message} ${(result.error as { description?: string } | undefined)?.description}`).toMatch(/issue a new key\..* — item 0$/);
			expect(result.stdout + result.stderr).not.toContain('sk_test_demo_revoked');
		},
		5 * MINUTES,
	);
});
