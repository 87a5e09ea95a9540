/** n8n-core reads these when first used: set before it is imported (import this module first). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A user folder of our own (removed after the suite), unless the caller chose one.
if (process.env.N8N_USER_FOLDER === undefined) {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-node-test-'));
	process.env.N8N_USER_FOLDER = folder;
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL = 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
