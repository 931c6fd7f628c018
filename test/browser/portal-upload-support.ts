/**
 * Helpers of the upload browser tests (portal-upload-*.test.ts): the Upload dialog, its batch rows,
 * files dropped from "the desktop" (a DataTransfer holding File objects made in the page), and the
 * files a folder holds as the api answers them.
 */
import type { Locator, Page } from 'playwright-core';
import type { SessionUser } from '../../shared/identity/index.js';
import { subjectOf, type PortalRig } from '../support/portal.js';

export function uploadDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Upload/ });
}

/** The batch row of a file, by its shown path. */
export function batchRow(page: Page, shown: string): Locator {
  return uploadDialog(page).getByRole('listitem').filter({ has: page.locator('.batch-name', { hasText: new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
}

/** The shown paths of the batch's rows (the list is virtualized: the rows in view). */
export async function batchNames(page: Page): Promise<string[]> {
  return uploadDialog(page).locator('.batch-name').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
}

/** Options of the dialog's top-level folder choice, as named. */
export async function topLevelOptions(page: Page): Promise<string[]> {
  return uploadDialog(page).getByLabel('Top-level folder').evaluate((select) => Array.from((select as HTMLSelectElement).options, (o) => o.textContent ?? ''));
}

/**
 * Drops files from "the desktop" onto `target`: dragenter, dragover and drop events carrying a
 * DataTransfer of File objects made in the page (name → text).
 */
export async function dropFiles(target: Locator, files: Record<string, string>): Promise<void> {
  await target.evaluate((element, entries) => {
    const data = new DataTransfer();
    for (const [name, text] of entries) data.items.add(new File([text], name, { type: name.endsWith('.txt') ? 'text/plain' : '' }));
    const box = element.getBoundingClientRect();
    const at = { clientX: box.left + Math.min(20, box.width / 2), clientY: box.top + box.height / 2 };
    for (const type of ['dragenter', 'dragover', 'drop']) element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data, ...at }));
  }, Object.entries(files));
}

/**
 * What the page does with files dragged over `target` and dropped there: whether it handled the
 * dragover and the drop (so the browser does not open the file in place of the portal) and the drop
 * effect it chose.
 */
export async function fileDragOutcome(target: Locator): Promise<{ dragoverHandled: boolean; dropHandled: boolean; dropEffect: string }> {
  return target.evaluate((element) => {
    const data = new DataTransfer();
    data.items.add(new File(['stray'], 'stray.txt', { type: 'text/plain' }));
    const box = element.getBoundingClientRect();
    const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
    const over = new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: data, ...at });
    element.dispatchEvent(over);
    const drop = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data, ...at });
    element.dispatchEvent(drop);
    return { dragoverHandled: over.defaultPrevented, dropHandled: drop.defaultPrevented, dropEffect: data.dropEffect };
  });
}

/** A library's api text (`person:<subject>` percent-encoded as the list route takes it). */
export function personLibrary(user: SessionUser): string {
  return `person:${encodeURIComponent(subjectOf(user))}`;
}

export interface Listed {
  id: string;
  path: string;
  file_name: string;
  display_name: string;
  description: string;
  tags: string[];
  content_type: string;
  version: number;
}

/** Every file beneath a folder (`<library>/<folder path>`), as `user` sees them. */
export async function filesBeneath(rig: PortalRig, user: SessionUser, folder: string): Promise<Listed[]> {
  const rest = await rig.restAs(user);
  const answer = await rest('GET', `/api/v1/resources?path=${encodeURIComponent(folder)}&limit=500`);
  if (answer.status !== 200) throw new Error(`list answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { items: Listed[] }).items;
}
