/**
 * A script's principal is script:<name> (spec document 3), and that principal owns what the script
 * wrote: so a deleted script's name is never given to another script, whose code would otherwise
 * act as the deleted script's principal and read its files (docs/scripts.md, "States").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRunsRig, type RunsRig } from '../integration/scripts-runs-fixtures.js';

let rig: RunsRig;
beforeAll(async () => {
  rig = await startRunsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

it("a deleted script's name is not reused: another owner's script cannot become its principal and read the files it wrote", async () => {
  const writer = await rig.rest('root', 'POST', '/', {
    name: 'vault',
    source: `export async function main() {
      return (await platform.write_resource({ path: 'cache', file_name: 'copy.txt', content: 'written with the administrator\\'s roles' })).resource.reference;
    }`,
  });
  const run = await rig.rest('root', 'POST', `/${writer.body.script.id}/run`);
  expect(run.body.status).toBe('ok');
  const reference: string = run.body.result;
  expect((await rig.rest('root', 'DELETE', `/${writer.body.script.id}`)).status).toBe(200);

  const reader = `export async function main() { return (await platform.read_resource(${JSON.stringify(reference)})).content; }`;
  const taken = await rig.rest('alice', 'POST', '/', { name: 'vault', source: reader });
  expect(taken).toMatchObject({ status: 409, body: { error: 'name_taken', message: expect.stringContaining('was the name of a deleted script') } });
  // Not the deleting administrator either: the name stays with the principal that wrote the file.
  expect((await rig.rest('root', 'POST', '/', { name: 'vault', source: reader })).status).toBe(409);
  const { rows } = await rig.db.query('SELECT name, script_id FROM retired_script_names');
  expect(rows).toEqual([{ name: 'vault', script_id: writer.body.script.id }]);
});
