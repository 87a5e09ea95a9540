// Copies the node's icons (.svg) and codex files (.node.json) from nodes/ and credentials/ into dist/,
// beside the compiled .js that n8n loads (tsc copies only what it compiles).
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

let copied = 0;
for (const root of ['nodes', 'credentials']) {
  if (!existsSync(root)) continue;
  for (const file of readdirSync(root, { recursive: true })) {
    if (!/\.(svg|png|node\.json)$/.test(file)) continue;
    cpSync(join(root, file), join('dist', root, file));
    copied += 1;
  }
}
console.log(`copied ${copied} n8n asset file(s) into dist/`);
