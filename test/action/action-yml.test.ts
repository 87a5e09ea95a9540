/** action.yml against SchemaStore's github-action schema (vendored in ./schema), and inputs declared ⇔ inputs read. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { run } from '../../action/src/main.ts';
import { actionYml, context, fakeCore, ROOT, workspace } from './helpers.ts';

const SCHEMA = join(__dirname, 'schema', 'github-action.json');

function inputNamesInCode(): Set<string> {
  const names = new Set<string>();
  const dir = join(ROOT, 'action', 'src');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const code = readFileSync(join(dir, f), 'utf8');
    for (const m of code.matchAll(/(?:getInput|booleanInput|secondsInput)\(\s*(?:core,\s*)?'([^']+)'/g)) names.add(m[1]);
  }
  return names;
}

function schemaValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
}

test('action.yml is valid against the github-action schema', () => {
  const validate = schemaValidator();
  const ok = validate(actionYml());
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
});

test('the schema refuses a broken action.yml (an unknown runtime, a misspelt key, an input without a description)', () => {
  const validate = schemaValidator();
  const yml = actionYml() as Record<string, any>;
  expect(validate({ ...yml, runs: { ...yml.runs, using: 'node99' } })).toBe(false);
  expect(validate({ ...yml, runz: yml.runs })).toBe(false);
  expect(validate({ ...yml, inputs: { ...yml.inputs, extra: { required: false } } })).toBe(false);
});

test('runs on node24 from dist/index.js; inputs are kebab-case; booleans have defaults; outputs documented', () => {
  const yml = actionYml() as ReturnType<typeof actionYml> & { runs: { using: string; main: string } };
  expect(yml.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  for (const [name, spec] of Object.entries(yml.inputs)) {
    expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(spec.description.length).toBeGreaterThan(20);
    expect(typeof spec.default).toBe('string');
  }
  for (const name of ['wait', 'fail-on-error', 'dry-run']) expect(['true', 'false']).toContain(yml.inputs[name].default);
  for (const name of ['ids', 'sent', 'failed', 'not-attempted', 'import-job-ids', 'import-status', 'results', 'idempotency-key']) expect(yml.outputs[name]?.description).toBeTruthy();
});

test('every input read in the code is declared, and every declared input is read', () => {
  const declared = new Set(Object.keys(actionYml().inputs));
  const read = inputNamesInCode();
  expect([...read].filter((n) => !declared.has(n))).toEqual([]);
  expect([...declared].filter((n) => !read.has(n))).toEqual([]);
});

test('every output written by the code is declared, and every declared output is written', async () => {
  const { dir } = workspace({});
  const core = fakeCore({ 'dry-run': 'true', channel: 'email', to: 'a@example.com', body: 'hi' });
  await run({ core, context: context(), env: { GITHUB_WORKSPACE: dir }, runtime: nodeRuntime(fetchTransport()) });
  expect(Object.keys(core.outputs).sort()).toEqual(Object.keys(actionYml().outputs).sort());
});

test('example workflows parse and use only declared inputs of the action', () => {
  const dir = join(ROOT, 'examples', 'workflows');
  const declared = new Set(Object.keys(actionYml().inputs));
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
  expect(files.length).toBeGreaterThanOrEqual(3);
  for (const f of files) {
    const wf = parse(readFileSync(join(dir, f), 'utf8')) as { jobs: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }> };
    const ours = Object.values(wf.jobs).flatMap((j) => j.steps ?? []).filter((s) => s.uses?.includes('/action@'));
    expect(ours.length).toBeGreaterThan(0);
    for (const s of ours) expect(Object.keys(s.with ?? {}).filter((k) => !declared.has(k))).toEqual([]);
  }
});
