import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** README stays true: the examples it shows for pasting are the files the tests run. */
const root = join(__dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = (lang: string) => [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

test('the n8n workflow JSON in README is examples/n8n-workflow.json', () => {
  const file = JSON.parse(readFileSync(join(root, 'examples', 'n8n-workflow.json'), 'utf8'));
  expect(blocks('json').map((b) => JSON.parse(b))).toContainEqual(file);
});

test.each(readdirSync(join(root, 'examples', 'workflows')))('README shows examples/workflows/%s as it is', (name) => {
  const file = readFileSync(join(root, 'examples', 'workflows', name), 'utf8');
  expect(blocks('yaml').map((b) => b.trim())).toContain(file.trim());
});

test('README names the commands package.json defines', () => {
  const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts);
  for (const [, name] of readme.matchAll(/npm run ([\w:-]+)/g)) expect(scripts).toContain(name);
  for (const name of ['test', 'start']) expect(readme).toContain(`npm ${name}`);
});
