/**
 * Contact → Import in a real n8n 2.41.1 editor (headless chromium), as a user opens it: a node saved
 * with version 1 and no operation opens on Import with version 1's Mapping dropdown; a version 2 node
 * shows the resource mapper's own modes instead. The same script makes docs/images/n8n-contact-import.png
 * (`npm run docs:screenshot-import`).
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realN8nSkipped } from '../../support/system.ts';
import { screenshotImport } from './screenshot-import.ts';

const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('Contact Import in the n8n editor (headless chromium)', () => {
	test('version 1 keeps its Mapping dropdown; version 2 maps with the resource mapper\'s own modes, automatically by default', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'n8n-import-shot-'));
		try {
			const { file, v1, v2 } = await screenshotImport(join(dir, 'import.png'));
			expect(v1.operation).toBe('Import');
			expect(v1.labels).toContain('Mapping');
			expect(v1.labels).not.toContain('Mapping Column Mode');
			expect(v1.values).toContain('Map Automatically');

			expect(v2.operation).toBe('Import');
			expect(v2.labels).toContain('Mapping Column Mode');
			expect(v2.labels).not.toContain('Mapping');
			expect(v2.values).toContain('Map Automatically');
			expect(statSync(file).size).toBeGreaterThan(10_000);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}, 15 * 60_000);
});
