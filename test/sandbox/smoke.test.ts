import { boot, call, expectError, wa } from './helpers.ts';
import type { Sandbox } from '../../sandbox/server.ts';

let sb: Sandbox;
beforeAll(async () => { sb = await boot(); });
afterAll(async () => { await sb.close(); });

test('smoke', async () => {
  const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] } });
  expect(r.status).toBe(200);
  expectError(await call(sb, 'GET', '/account', { key: null }), 401, 'missing_api_key', null, 'authentication_error');
});
