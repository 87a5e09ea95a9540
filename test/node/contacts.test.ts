/** Contact, Contact Attribute, Job and Account operations through n8n-core's engine against the sandbox. */
import { ledgerRows } from '../support/ledger-rows.ts';
import { executeDirectly, runNode } from './harness.ts';
import { credentialsFor, pairedIndex, startSandbox, shownError } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import type { INodeExecutionData } from 'n8n-workflow';
import { useVirtualTime, waitedMs, waits } from './virtual-time.ts';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: (ms: number) => jest.requireActual<typeof import('./virtual-time.ts')>('./virtual-time.ts').virtualSleep(ms) }));
useVirtualTime();

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox(undefined, () => Date.now());
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

function contacts(n: number, from = 0): Record<string, unknown>[] {
	return Array.from({ length: n }, (_, i) => ({ first_name: `C${from + i}`, email: `c${from + i}@example.com` }));
}

const importParameters = { resource: 'contact', operation: 'import', waitForCompletion: true, waitTimeoutSeconds: 60 };

test('Contact → Import with Wait: 1,500 items → 2 jobs, totals, per-row errors mapped back to the item index; failed rows on the error output', async () => {
	const items = contacts(1500);
	items[3] = { first_name: 'No address' };
	items[1203] = { first_name: 'Bad', email: 'not-an-email' };
	const { outputs, error } = await runNode({ parameters: importParameters, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(error).toBeUndefined();
	const [main, errors] = outputs;
	expect(main).toHaveLength(1);
	const summary = main![0]!.json as Record<string, any>;
	expect(summary.completed).toBe(true);
	expect(summary.totals).toEqual({ contacts: 1500, queued: 1500, processed: 1500, failed: 2, jobs: 2, completedJobs: 2, unfinishedJobs: 0 });
	expect(summary.jobs.map((j: any) => [j.offset, j.total, j.status])).toEqual([[0, 1000, 'completed'], [1000, 500, 'completed']]);
	expect(summary.rowErrors.map((r: any) => [r.itemIndex, r.code, r.param])).toEqual([[3, 'validation_failed', undefined], [1203, 'validation_failed', 'email']]);
	expect((main![0]!.pairedItem as { item: number }[]).map((p) => p.item)).toEqual(items.map((_, i) => i));
	expect(errors!.map(pairedIndex)).toEqual([3, 1203]);
	expect(errors![1]!.json.error).toMatch(/^validation_failed: /);
	expect(errors![1]!.json.message).toMatch(/row of job job_\w+; item 1203$/);
	expect(errors![1]!.json.details).toMatchObject({ code: 'validation_failed', param: 'email', jobId: summary.jobs[1].id });
	const ledger = ledgerRows(sb);
	expect(ledger.jobs).toHaveLength(2);
	expect(ledger.contacts).toHaveLength(1498);
});

test('Contact → Import without Wait returns the queued jobs, each paired with the items of its chunk; Job → Get and Job → Wait follow them', async () => {
	sb.control.configure({ job_rows_per_second: 2000 });
	const items = contacts(1100);
	const { outputs } = await runNode({ parameters: { ...importParameters, waitForCompletion: false }, items, credentials: credentialsFor(sb) });
	const jobs = outputs[0]!;
	expect(jobs.map((j) => [j.json.object, j.json.status, j.json.total, j.json.offset, j.json.count])).toEqual([
		['job', 'queued', 1000, 0, 1000],
		['job', 'queued', 100, 1000, 100],
	]);
	expect((jobs[1]!.pairedItem as { item: number }[]).map((p) => p.item)).toEqual(Array.from({ length: 100 }, (_, i) => 1000 + i));

	const jobItems = jobs.map((j) => ({ id: j.json.id }));
	const got = await runNode({ parameters: { resource: 'job', operation: 'get', jobId: '={{ $json.id }}' }, items: jobItems, credentials: credentialsFor(sb) });
	expect(got.outputs[0]!.map((j) => [j.json.id, pairedIndex(j)])).toEqual([[jobItems[0]!.id, 0], [jobItems[1]!.id, 1]]);

	const waited = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId: '={{ $json.id }}', timeoutSeconds: 30 }, items: jobItems, credentials: credentialsFor(sb) });
	expect(waited.error).toBeUndefined();
	expect(waited.outputs[0]!.map((j) => [j.json.processed, typeof j.json.completed_at])).toEqual([[1000, 'string'], [100, 'string']]);
	expect(ledgerRows(sb).contacts).toHaveLength(1100);
});

test('Job → Wait past its timeout fails with wait_timeout (routed with continue-on-fail); Import with Wait past its timeout says which jobs still run', async () => {
	sb.control.configure({ job_rows_per_second: 0 }); // jobs stay queued
	const queued = await runNode({ parameters: { ...importParameters, waitForCompletion: false }, items: contacts(2), credentials: credentialsFor(sb) });
	const id = queued.outputs[0]![0]!.json.id as string;
	const started = Date.now();
	waits.length = 0;
	const failed = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId: id, timeoutSeconds: 1 }, items: [{}], credentials: credentialsFor(sb) });
	// It waited out its 1 s on the clock, and not a millisecond more.
	expect(waitedMs()).toBeCloseTo(1000, 3);
	expect(Date.now() - started).toBeCloseTo(1000, 3);
	expect(shownError(failed.error)).toMatch(new RegExp(`^wait_timeout: Job ${id} did not finish within 1 s .*\\(0 of 2 rows processed\\).* — item 0$`));
	const routed = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId: id, timeoutSeconds: 1 }, items: [{}], credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(routed.outputs[1]![0]!.json.details).toMatchObject({ code: 'wait_timeout' });

	waits.length = 0;
	const importing = await runNode({ parameters: { ...importParameters, waitTimeoutSeconds: 1 }, items: contacts(3), credentials: credentialsFor(sb) });
	expect(waitedMs()).toBeCloseTo(1000, 3);
	expect(shownError(importing.error)).toMatch(/^wait_timeout: 1 of 1 import jobs did not finish within 1 s It keeps running on the service: raise "Timeout \(Seconds\)", or wait for it later with Job → Wait \(job id job_\w+\)\. — item 0$/);
});

test('Contact → Import: a refused call (insufficient_scope) stops the node with the count of queued jobs, or routes every item', async () => {
	const stopped = await runNode({ parameters: importParameters, items: contacts(2), credentials: credentialsFor(sb, 'sk_test_demo_no_contacts_write') });
	expect(shownError(stopped.error)).toMatch(/^insufficient_scope: .*contacts:write.* — 0 of 1 import jobs queued \(0 of 2 contacts\); item 0$/);
	const routed = await runNode({ parameters: importParameters, items: contacts(2), credentials: credentialsFor(sb, 'sk_test_demo_no_contacts_write'), onError: 'continueErrorOutput' });
	expect(routed.outputs[0]).toHaveLength(0);
	expect(routed.outputs[1]!.map(pairedIndex)).toEqual([0, 1]);
	expect(routed.outputs[1]![0]!.json.details).toMatchObject({ code: 'insufficient_scope', status: 403, outcome: 'failed' });
});

test('Contact → Get Many: Limit (default 50), a limit over one page, Return All (pages of 100 with the opaque cursor)', async () => {
	await runNode({ parameters: importParameters, items: contacts(230), credentials: credentialsFor(sb) });
	const before = ledgerRows(sb).requests;
	const byDefault = await runNode({ parameters: { resource: 'contact', operation: 'getAll', limit: 50 }, items: [{}], credentials: credentialsFor(sb) });
	expect(byDefault.outputs[0]).toHaveLength(50);
	const limited = await runNode({ parameters: { resource: 'contact', operation: 'getAll', limit: 120 }, items: [{}], credentials: credentialsFor(sb) });
	expect(limited.outputs[0]).toHaveLength(120);
	const all = await runNode({ parameters: { resource: 'contact', operation: 'getAll', returnAll: true }, items: [{}], credentials: credentialsFor(sb) });
	expect(all.outputs[0]).toHaveLength(230);
	expect(new Set(all.outputs[0]!.map((c) => c.json.id)).size).toBe(230);
	expect(all.outputs[0]!.every((c) => pairedIndex(c) === 0)).toBe(true);
	expect(ledgerRows(sb).requests - before).toBe(1 + 2 + 3);
});

test('Contact Attribute → Get Many and Account → Get (one result set per input item, paired)', async () => {
	const attributes = await runNode({ parameters: { resource: 'contactAttribute', operation: 'getAll' }, items: [{}, {}], credentials: credentialsFor(sb) });
	expect(attributes.outputs[0]!.map((a) => [a.json.key, pairedIndex(a)])).toEqual([['city', 0], ['vip', 0], ['city', 1], ['vip', 1]]);
	const account = await runNode({ parameters: { resource: 'account', operation: 'get' }, items: [{}], credentials: credentialsFor(sb) });
	expect(account.outputs[0]![0]!.json).toMatchObject({ id: 'acc_demo', rate_limit: 600 });
});

test('execute() of list and import operations pairs every output item with the input it came from', async () => {
	await runNode({ parameters: importParameters, items: contacts(3), credentials: credentialsFor(sb) });
	const pairing = (out: INodeExecutionData[][]) => out[0]!.map((item) => item.pairedItem);
	// Every input item gets the whole list, paired with that item.
	const listed = await executeDirectly({ parameters: { resource: 'contact', operation: 'getAll', limit: 50 }, items: [{}, {}], credentials: credentialsFor(sb) });
	expect(pairing(listed)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }, { item: 1 }]);
	// One summary for the import, paired with every row it carried.
	const imported = await executeDirectly({ parameters: importParameters, items: contacts(2, 10), credentials: credentialsFor(sb) });
	expect(pairing(imported)).toEqual([[{ item: 0 }, { item: 1 }]]);
	const attributes = await executeDirectly({ parameters: { resource: 'contactAttribute', operation: 'getAll' }, items: [{}], credentials: credentialsFor(sb) });
	expect(pairing(attributes)).toEqual([{ item: 0 }, { item: 0 }]);
	const account = await executeDirectly({ parameters: { resource: 'account', operation: 'get' }, items: [{}, {}], credentials: credentialsFor(sb) });
	expect(pairing(account)).toEqual([{ item: 0 }, { item: 1 }]);
});
