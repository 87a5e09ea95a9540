/**
 * .github/workflows/*.yml: each is valid against GitHub's workflow schema (@action-validator/core, the
 * SchemaStore schema compiled to WebAssembly), and each does the job it exists for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const DIR = join(__dirname, '..', '..', '.github', 'workflows');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Job = { permissions?: Record<string, string>; steps?: Step[]; needs?: string | string[]; uses?: string };
type Workflow = { on: Record<string, any>; permissions?: Record<string, string>; jobs: Record<string, Job> };
const workflow = (name: string) => parse(read(name)) as Workflow;
const runs = (job: Job) => (job.steps ?? []).map((s) => s.run ?? '').join('\n');

test('the three workflows exist', () => {
	expect(readdirSync(DIR).sort()).toEqual(['ci.yml', 'publish.yml', 'release-action.yml']);
});

test.each(['ci.yml', 'publish.yml', 'release-action.yml'])('%s is valid against the workflow schema', (name) => {
	expect(validateWorkflow(read(name)).errors).toEqual([]);
});

test('the validator rejects a broken workflow (a misspelt key, steps not a list)', () => {
	const broken = read('ci.yml').replace('runs-on:', 'runs-onn:');
	expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
	expect(validateWorkflow('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: 3\n').errors.length).toBeGreaterThan(0);
});

test('ci.yml runs the README test command on push and pull request, callable by publish.yml', () => {
	const ci = workflow('ci.yml');
	expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request', 'workflow_call']));
	const script = runs(ci.jobs.test);
	expect(script).toMatch(/npm ci\b/);
	expect(script).toMatch(/setup-host\.sh/);
	expect(script.trim().split('\n').at(-1)?.trim()).toBe('npm test');
	expect(readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8')).toContain('npm test');
});

test('publish.yml: on a v* tag, tests first, then npm publish with provenance and an OIDC token', () => {
	const publish = workflow('publish.yml');
	expect(publish.on.push.tags).toEqual(['v*']);
	expect(publish.jobs.test.uses).toBe('./.github/workflows/ci.yml');
	expect(publish.jobs.publish.needs).toBe('test');
	expect(publish.jobs.publish.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	expect(runs(publish.jobs.publish)).toContain('npm publish --provenance --access public');
});

test('release-action.yml moves the major tag of the action on a published release', () => {
	const release = workflow('release-action.yml');
	expect(release.on.release.types).toEqual(['published']);
	expect(release.permissions).toEqual({ contents: 'write' });
	const script = runs(release.jobs['move-major-tag']);
	expect(script).toContain('major="${TAG%%.*}"');
	expect(script).toMatch(/git tag -fa "\$major"/);
	expect(script).toMatch(/git push origin "refs\/tags\/\$major" --force/);
});
