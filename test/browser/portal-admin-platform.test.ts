/**
 * Admin > Personas, Connections and System in a real browser (issue 39, "Admin REST API": personas,
 * connections and their health, system info), and who sees the administrators' pages: a
 * non-administrator sees none of them (no Administration group; each address says it is not
 * theirs in the api's words) while the api refuses every route; a script owner who is not an
 * administrator sees the scripts the api lets them read, and no more. Real api, Postgres, Temporal
 * and storage; axe in both themes. The admin API is under another admin.path_prefix here, which
 * the pages follow (portal settings' admin_path_prefix).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

type Json = Record<string, unknown>;
const UI = 'http://temporal-ui.test:8233';

// Support (Carol) may not manage scripts; Sales (Alice, Bob) may; Administrators (Ada) everything.
const personasYaml = `
personas:
  definitions:
    admin: { display_name: Administrators, roles: [admin], priority: 100, tools: { allow: ["*"] } }
    sales: { display_name: Sales, roles: [sales], priority: 10, tools: { allow: ["*"] } }
    support: { display_name: Support, roles: [support], priority: 5, tools: { allow: ["*"], deny: ["manage_script"] } }
admin: { enabled: true, persona: admin, path_prefix: /ops/admin }
`;
// Not the default: the pages reach the admin API where portal settings say it is.
const PREFIX = '/ops/admin';

const adminPages = [
  ['/portal/admin/webhooks', `${PREFIX}/webhooks/sources`],
  ['/portal/admin/bot-check', `${PREFIX}/settings/bot-check`],
  ['/portal/admin/secrets', `${PREFIX}/secrets`],
  ['/portal/admin/audit', `${PREFIX}/audit`],
  ['/portal/admin/personas', `${PREFIX}/personas`],
  ['/portal/admin/connections', `${PREFIX}/connections`],
  ['/portal/admin/system', `${PREFIX}/system`],
] as const;
const adminLinks = ['Webhooks', 'Bot check', 'Secrets', 'Audit', 'Personas', 'Connections', 'System'];

describe.skipIf(!haveChromium)('portal: Admin > Personas, Connections, System; who sees the administrators\' pages', () => {
  let rig: PortalRig;
  let adasScript = '';

  beforeAll(async () => {
    rig = await startPortalRig({ personasYaml, temporalUiUrl: UI });
    const ada = await rig.restAs(people.admin);
    const created = await ada('POST', '/api/v1/portal/scripts', { name: 'adas-job', source: 'export function handle(req) { return { json: 1 } }' });
    adasScript = ((created.body as Json).script as Json).id as string;
    expect((await ada('PUT', `/api/v1/portal/scripts/${adasScript}/endpoint`, { endpoint: 'adas', auth_mode: 'signed_in' })).status).toBe(200);
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('personas: each with its members and the tools it allows; connections with their health; system with the database, Temporal and its UI', async () => {
    const { context, page } = await rig.open(people.admin, { height: 1400 });
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/personas');
    const support = page.getByRole('region', { name: 'Support (support)' });
    await support.waitFor();
    expect(await support.textContent()).toContain('Deny' + 'manage_script');
    const admins = page.getByRole('region', { name: 'Administrators (admin)' });
    expect(await admins.textContent()).toContain('platform administrators');
    expect(await admins.textContent()).toMatch(/Rolesadmin/);
    await admins.getByText('The tools its members may call').click();
    expect(await admins.textContent()).toContain('manage_script');
    await support.getByText('The tools its members may call').click();
    expect(await support.locator('.params').textContent()).not.toContain('manage_script');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Connections' }).click();
    const row = page.getByRole('row', { name: /local/ });
    await row.getByText('healthy').waitFor();
    expect(await row.textContent()).toMatch(/objstorefilesystem/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'System' }).click();
    const database = page.getByRole('region', { name: 'Database' });
    await database.getByText('reachable', { exact: true }).waitFor();
    const temporal = page.getByRole('region', { name: 'Temporal' });
    await temporal.getByText('reachable', { exact: true }).waitFor();
    expect(await temporal.getByRole('link', { name: UI }).getAttribute('href')).toBe(UI);
    expect(await page.getByRole('region', { name: 'Platform' }).textContent()).toContain(process.version);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-system-1280.png' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a non-administrator sees none of these pages: no Administration group, each address refused in the api\'s words, and the api refuses every route', async () => {
    const { context, page } = await rig.open(people.carol);
    const problems = watchPageProblems(page);
    await page.goto('/portal/resources');
    await page.getByRole('link', { name: 'Resources' }).waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Portal' });
    // Both access checks answered (refused) before the sidebar is judged.
    await page.waitForLoadState('networkidle');
    expect(await sidebar.getByText('Administration').count()).toBe(0);
    for (const name of [...adminLinks, 'Scripts']) expect(await sidebar.getByRole('link', { name }).count(), name).toBe(0);

    const carol = await rig.restAs(people.carol);
    for (const [address, route] of adminPages) {
      const refused = await carol('GET', route);
      expect(refused.status, route).toBe(403);
      await page.goto(address);
      const notice = page.getByRole('alert').filter({ hasText: 'This page is not available to you.' });
      await notice.waitFor();
      expect(await notice.textContent()).toContain((refused.body as Json).message as string);
    }
    for (const [method, route] of [
      ['GET', `${PREFIX}/access`],
      ['GET', `${PREFIX}/audit/export.csv`],
      ['POST', `${PREFIX}/webhooks/sources`],
      ['PUT', `${PREFIX}/settings/bot-check`],
      ['PUT', `${PREFIX}/secrets/x`],
      ['GET', '/api/v1/portal/scripts'],
    ] as const) {
      expect((await carol(method, route, method === 'GET' ? undefined : {})).status, route).toBe(403);
    }
    await page.goto('/portal/admin/scripts');
    await page.getByRole('alert').filter({ hasText: 'This page is not available to you.' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a script owner who is not an administrator: Scripts only; another owner's script without its source, binding or changes", async () => {
    const alice = await rig.restAs(people.alice);
    const own = await alice('POST', '/api/v1/portal/scripts', { name: 'alices-job', source: 'export function main() { return 1 }' });
    expect(own.status).toBe(201);
    const { context, page } = await rig.open(people.alice, { theme: 'dark' });
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/scripts');
    const sidebar = page.getByRole('navigation', { name: 'Portal' });
    await sidebar.getByRole('link', { name: 'Scripts' }).waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of adminLinks) expect(await sidebar.getByRole('link', { name }).count(), name).toBe(0);
    await page.getByRole('link', { name: 'alices-job' }).click();
    await page.getByRole('textbox', { name: 'Source of alices-job' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(1);

    await page.goto(`/portal/admin/scripts/${adasScript}`);
    await page.getByRole('heading', { name: 'adas-job', level: 1 }).waitFor();
    await page.getByText('A script’s source is shown to its owner and administrators.').waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Endpoint' }).click();
    const refused = await alice('GET', `/api/v1/portal/scripts/${adasScript}/endpoint`);
    expect(refused.status).toBe(403);
    const notice = page.getByRole('alert').filter({ hasText: 'This page is not available to you.' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain((refused.body as Json).message as string);
    expect(await page.getByRole('button', { name: 'Bind' }).count()).toBe(0);
    expect((await alice('PUT', `/api/v1/portal/scripts/${adasScript}/endpoint`, { endpoint: 'mine', auth_mode: 'signed_in' })).status).toBe(403);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('axe: personas, connections and system in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await rig.open(people.admin, { theme });
      for (const path of ['/portal/admin/personas', '/portal/admin/connections', '/portal/admin/system']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('.loading').waitFor({ state: 'detached' });
        await page.locator('.facts, table').first().waitFor();
        expect(await seriousViolations(page), `${path} ${theme}`).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-39-${path.split('/').pop()}-${theme}-1280.png`, fullPage: true });
      }
      await context.close();
    }
  });
});
