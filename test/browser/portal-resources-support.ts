/**
 * Helpers of the file manager's browser tests (portal-resources-*.test.ts): many uploads through one
 * session, addresses, the listing's rows and tabbing to a widget with the keyboard alone.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SessionUser } from '../../shared/identity/index.js';
import { subjectOf, type PortalRig } from '../support/portal.js';

export interface Upload {
  library?: string;
  path?: string;
  name: string;
  content: string;
  type?: string;
  displayName?: string;
}

/** Uploads every file as `user` through one session, `concurrency` at a time. */
export async function uploadMany(rig: PortalRig, user: SessionUser, files: Upload[], concurrency = 8): Promise<Array<{ id: string }>> {
  const rest = await rig.restAs(user);
  const answers: Array<{ id: string }> = new Array(files.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, files.length) }, async () => {
      while (next < files.length) {
        const i = next++;
        const f = files[i]!;
        const form = new FormData();
        form.set('library', f.library ?? 'personal');
        form.set('path', f.path ?? '');
        if (f.displayName) form.set('display_name', f.displayName);
        form.set('file', new Blob([f.content], { type: f.type ?? 'text/plain' }), f.name);
        const answer = await rest('POST', '/api/v1/resources', form);
        if (answer.status !== 201) throw new Error(`upload of ${f.name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        answers[i] = answer.body;
      }
    }),
  );
  return answers;
}

/** The portal address of a folder of `user`'s own library. */
export function personAddress(user: SessionUser, path = ''): string {
  return `/portal/resources/lib/person:${encodeURIComponent(subjectOf(user))}${path ? `/${path}` : ''}`;
}

export function listing(page: Page): Locator {
  return page.getByRole('grid');
}

/** The listing's section (its heading, toolbar, grid and status line), apart from the preview pane beside it. */
export function listingSection(page: Page): Locator {
  return page.locator('section.listing');
}

/** The listing's data rows (the header row left out). */
export function listingRows(page: Page): Locator {
  return page.getByRole('grid').getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
}

export function treeRow(page: Page, name: string): Locator {
  return page.getByRole('treegrid', { name: 'Folders' }).getByRole('row', { name, exact: true });
}

/** The names of the listing's rows as shown (first cell). */
export async function listedNames(page: Page): Promise<string[]> {
  return listingRows(page).evaluateAll((rows) => rows.map((r) => (r.querySelector('.cell-text')?.textContent ?? '').trim()));
}

/** Presses Tab (at most `limit` times) until focus is inside `target`; fails otherwise. */
export async function tabInto(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el.contains(document.activeElement))) return;
  }
  throw new Error('Tab never reached the target');
}

/** The accessible text of the focused element's row (or of the element itself). */
export async function focusedRowName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const row = document.activeElement?.closest('[role="row"]');
    if (!row) return `(focus on ${document.activeElement?.tagName.toLowerCase() ?? 'nothing'})`;
    return (row.querySelector('.cell-text, .tree-name')?.textContent ?? '').trim();
  });
}

export async function expectFocusedRow(page: Page, name: string): Promise<void> {
  await poll(() => focusedRowName(page)).toBe(name);
}

/** expect.poll with a timeout fit for a busy machine (its default is one second). */
export function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 50 });
}

/** Selects a file in the listing by its display name; waits until the preview pane shows it. */
export async function selectForPreview(page: Page, name: string): Promise<void> {
  const row = listingSection(page)
    .getByRole('row', { name })
    .or(listingSection(page).getByRole('option', { name }))
    .or(listingSection(page).getByRole('button', { name, exact: true }))
    .first();
  await row.click();
  await expect.poll(() => page.getByRole('complementary', { name: 'Preview' }).getByRole('heading', { level: 2 }).textContent()).toBe(name);
}

/**
 * Seeds `count` one-byte files beneath `folder` of `user`'s library as rows (the statement triggers
 * keep the folder counts exact): as many uploads would keep the worker busy with their index and
 * thumbnail jobs for minutes, and a folder rename is a workflow on that worker.
 */
export async function seedFileRows(rig: PortalRig, user: SessionUser, folder: string, count: number): Promise<void> {
  await rig.db.query(
    `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, content_type, size, content_sha256, head_version, uploader, created_at, updated_at)
     SELECT gen_random_uuid()::text, 'person', $1, $3, 'f-' || i || '.txt', 'f-' || i, 'text/plain', 1, NULL, 1, $1, now(), now()
       FROM generate_series(1, $2::int) AS i`,
    [subjectOf(user), count, folder],
  );
}
