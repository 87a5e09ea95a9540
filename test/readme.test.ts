import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** README and docs stay true: the examples they show for pasting are the files the tests run. */
const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

test('README is a front door: at most about 150 lines', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(155);
});

test('the n8n workflow JSON in README is examples/n8n-quickstart.json (which the real-n8n e2e test runs)', () => {
  const file = JSON.parse(read('examples/n8n-quickstart.json'));
  expect(blocks(readme, 'json').map((b) => JSON.parse(b))).toEqual([file]);
});

test('README shows examples/workflows/release-notification.yml as it is', () => {
  expect(blocks(readme, 'yaml').map((b) => b.trim())).toEqual([read('examples/workflows/release-notification.yml').trim()]);
});

test.each(readdirSync(join(root, 'examples', 'workflows')))('README or docs/github-action.md shows examples/workflows/%s as it is', (name) => {
  const shown = [...blocks(readme, 'yaml'), ...blocks(read('docs/github-action.md'), 'yaml')].map((b) => b.trim());
  expect(shown).toContain(read(join('examples', 'workflows', name)).trim());
});

test('README names the commands package.json defines', () => {
  const scripts = Object.keys(JSON.parse(read('package.json')).scripts);
  for (const [, name] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(scripts).toContain(name);
  for (const name of ['test', 'start']) expect(readme).toContain(`npm ${name}`);
});

test('every file README links to exists', () => {
  const links = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^https?:/.test(l));
  expect(links.length).toBeGreaterThan(5);
  for (const link of links) expect([link, existsSync(join(root, link))]).toEqual([link, true]);
});

test("README's n8n comparison is what `npm run bench:n8n` wrote to bench/results-n8n.json", () => {
  const { rows, ceilingPerMinute } = JSON.parse(read('bench/results-n8n.json')) as { ceilingPerMinute: number; rows: { label: string; items: number; calls: number; rateLimited: number; delivered: number; wallMs: number }[] };
  const measured = readme.slice(readme.indexOf('## Measured'));
  expect(measured).toContain(`one key at ${ceilingPerMinute} calls a minute`);
  const line = (name: string, r: (typeof rows)[number]) =>
    `| ${name} | ${r.calls.toLocaleString('en')} | ${r.rateLimited.toLocaleString('en')} | ${r.delivered.toLocaleString('en')} | ${(r.wallMs / 1000).toFixed(1)} s |`;
  const [ours, http] = rows;
  expect(measured).toContain(`${ours!.items.toLocaleString('en')} messages`);
  expect(measured).toContain(line('this node (Send)', ours!));
  expect(measured).toContain(line('HTTP Request node, one call per item', http!));
});
