/**
 * The portal's typed client is generated from the api's own OpenAPI document (PORTAL.md): the
 * committed portal/src/api/schema.d.ts must be what openapi-typescript makes of /api/openapi.json
 * of a fully configured api today, so a route change the portal has not taken up fails here (and
 * a change that breaks a page fails the portal's typecheck once regenerated).
 *
 *   npm run portal:api-types    regenerates the file (this test with PORTAL_API_TYPES=write)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { portalDir } from '../../shared/toolchain/portal-build.js';
import { startEveryRouteRig, type EveryRouteRig } from '../security/every-route-fixtures.js';

const typesFile = join(portalDir, 'src', 'api', 'schema.d.ts');
const header = '// Generated from /api/openapi.json by test/integration/portal-api-types.test.ts (npm run portal:api-types). Do not edit.\n';

let rig: EveryRouteRig;
beforeAll(async () => {
  rig = await startEveryRouteRig();
});
afterAll(async () => rig?.stop());

async function generatedTypes(): Promise<string> {
  const document = await (await fetch(`${rig.api.url}/api/openapi.json`)).json();
  // The generator belongs to the portal's own packages (portal/package.json).
  const generator = await import(pathToFileURL(join(portalDir, 'node_modules', 'openapi-typescript', 'dist', 'index.mjs')).href);
  const ast = await generator.default(document, { alphabetize: true });
  return header + generator.astToString(ast);
}

it('portal/src/api/schema.d.ts is generated from the current OpenAPI document', async () => {
  const expected = await generatedTypes();
  if (process.env.PORTAL_API_TYPES === 'write') await writeFile(typesFile, expected);
  expect(await readFile(typesFile, 'utf8').catch(() => '(missing)'), 'run npm run portal:api-types and commit portal/src/api/schema.d.ts').toBe(expected);
});
