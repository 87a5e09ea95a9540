/** n8n-core reads these when first used: set before it is imported (import this module first). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-node-test-'));
process.env.N8N_LOG_LEVEL = 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
