/**
 * Data is never markup: text from the event payload or from files reaches the job summary escaped for
 * Markdown and HTML, on its own line. Run as the runner runs the bundle, in dry runs (the summary is the same
 * whether or not anything is sent).
 */
import { existsSync } from 'node:fs';
import { DIST, runStep } from './runner.ts';

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
});

/** A pull request title written to take over the summary: its own lines, a command, HTML, a link. */
const HOSTILE = 'Fix typo\n::error::pwned\n<img src=x onerror=alert(1)>\n> [!CAUTION]\n> Rotate your keys at [this page](https://evil.example/) **now** $\\color{red}{x}$';
const PR_EVENT = { pull_request: { title: HOSTILE, number: 7 }, repository: { full_name: 'acme/shop' } };

/** Lines of the summary that the hostile text would have started. */
function injectedLines(summary: string): string[] {
  return summary.split('\n').filter((l) => /^(::error::|<img|> Rotate|> \[!CAUTION\]$)/.test(l));
}

test('a PR title used as subject and body stays one escaped line in the summary', async () => {
  const r = await runStep(
    { mode: 'send', channel: 'email', to: 'ann@example.com', subject: '{{ event.pull_request.title }}', body: 'PR: {{ event.pull_request.title }}', 'dry-run': 'true' },
    { event: PR_EVENT, eventName: 'pull_request_target' },
  );
  expect(r.code).toBe(0);
  expect(injectedLines(r.summary)).toEqual([]);
  expect(r.summary).not.toContain('<img');
  expect(r.summary).not.toContain('[this page](');
  expect(r.summary).not.toContain('**now**');
  const subject = r.summary.split('\n').find((l) => l.startsWith('**Subject:**'))!;
  expect(subject).toContain('Fix typo ⏎ ::error::pwned ⏎ &lt;img src=x onerror=alert(1)&gt; ⏎ &gt; \\[!CAUTION\\] ⏎ &gt; Rotate your keys at \\[this page\\](https://evil.example/) \\*\\*now\\*\\* \\$\\\\color{red}{x}\\$');
});

/** The line without its code spans (CommonMark: a run of n backticks up to the next run of exactly n). */
const outsideCode = (line: string) => line.replace(/(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)/g, '');

test('a file name and values from the file are escaped in the details and the rows table', async () => {
  const name = 'm`<img src=x onerror=alert(1)>`.csv';
  const csv = 'channel,to,body\nemail,a@b.x`<img/src=x/onerror=alert(1)>`|x,hi\nemail,ann@example.com,hi\n';
  const r = await runStep({ mode: 'batch', file: name, 'dry-run': 'true' }, { files: { [name]: csv } });
  expect(r.code).toBe(0);
  for (const line of r.summary.split('\n')) expect(outsideCode(line)).not.toMatch(/<img/);
  // Every row of the rows table has as many cells as its header: no value added a column.
  const lines = r.summary.split('\n');
  const table = lines.slice(lines.findIndex((l) => l.startsWith('| Line'))).filter((l) => l.startsWith('| '));
  const cells = (l: string) => l.replace(/\\\|/g, '').split('|').length;
  expect(table).toHaveLength(3);
  expect(new Set(table.map(cells)).size).toBe(1);
});

test('an invalid mode (named in the title) is escaped too', async () => {
  const r = await runStep({ mode: 'send\n<img src=x onerror=alert(1)>', 'dry-run': 'true' });
  expect(r.code).toBe(1);
  expect(r.summary.split('\n')[0]).toBe('### Messaging Service — send ⏎ &lt;img src=x onerror=alert(1)&gt;');
});
