/**
 * Every documentation link the package ships (codex resources, the credential's documentationUrl) and
 * every in-page link of docs/n8n.md resolves: the file exists in the repository and the anchor is the
 * GitHub slug of one of its headings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials.ts';

const root = join(__dirname, '..', '..');
const REPO = 'https://github.com/messaging-service/n8n-nodes-messaging-service/blob/main/';

/** GitHub's heading anchors: lower case, markup and punctuation dropped, spaces → "-", repeats get "-1", "-2", … */
function githubSlugs(markdown: string): Set<string> {
	const slugs = new Set<string>();
	const counts = new Map<string, number>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
		const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
		const seen = counts.get(base) ?? 0;
		counts.set(base, seen + 1);
		slugs.add(seen === 0 ? base : `${base}-${seen}`);
	}
	return slugs;
}

function shippedDocUrls(): string[] {
	const codex = JSON.parse(readFileSync(join(root, 'nodes/MessagingService/MessagingService.node.json'), 'utf8'));
	const fromCodex = Object.values(codex.resources as Record<string, { url: string }[]>).flatMap((list) => list.map((r) => r.url));
	return [...fromCodex, new MessagingServiceApi().documentationUrl];
}

test('the GitHub slug rules (as github.com renders headings)', () => {
	expect([...githubSlugs('# Messaging Service node for n8n\n## Error output\n## What is safe to retry?\n## `Refused Rows` option\n## Limits\n## Limits\n```\n# not a heading\n```')]).toEqual([
		'messaging-service-node-for-n8n',
		'error-output',
		'what-is-safe-to-retry',
		'refused-rows-option',
		'limits',
		'limits-1',
	]);
});

test.each(shippedDocUrls())('%s resolves to a heading that exists', (url) => {
	expect(url.startsWith(REPO)).toBe(true);
	const [path, anchor] = url.slice(REPO.length).split('#') as [string, string | undefined];
	expect(existsSync(join(root, path))).toBe(true);
	expect(anchor).toBeTruthy();
	expect([...githubSlugs(readFileSync(join(root, path), 'utf8'))]).toContain(anchor);
});

test('docs/n8n.md: in-page links and images resolve; it has the sections users look for', () => {
	const doc = readFileSync(join(root, 'docs/n8n.md'), 'utf8');
	const slugs = githubSlugs(doc);
	for (const [, anchor] of doc.matchAll(/\]\(#([^)]+)\)/g)) expect([...slugs]).toContain(anchor);
	for (const [, image] of doc.matchAll(/!\[[^\]]*\]\(([^)#]+)\)/g)) expect(existsSync(join(root, 'docs', image!))).toBe(true);
	for (const section of ['install', 'credential', 'operations', 'options', 'error-output', 'resource-mapper', 'limits', 'what-is-safe-to-retry']) expect([...slugs]).toContain(section);
});

test('the codex: Communication first, the search aliases users type, and only true ones (no SMS channel, no "sms")', () => {
	const codex = JSON.parse(readFileSync(join(root, 'nodes/MessagingService/MessagingService.node.json'), 'utf8'));
	expect(codex.categories[0]).toBe('Communication');
	expect(codex.alias).toEqual(expect.arrayContaining(['whatsapp', 'email', 'notification', 'contacts', 'bulk', 'import']));
	expect(codex.alias).not.toContain('sms');
});
