/**
 * Allowed actions (spec document 2, end of "Authentication"): for the owner, a member, a persona
 * administrator and a platform administrator, the actions each resource and folder answer offers,
 * checked against a table and then against the routes themselves — every action is performed
 * (on a fresh copy, so each attempt is independent) and accepted exactly where it was offered.
 * Also the move-targets route, and the refusal of a move to a person the platform has never seen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, as, multipart, root, salesAdmin, salesMember, send, startResourceRestApi, type RawResponse, type ResourceRestApi, type Who } from './resources-rest-fixtures.js';

let api: ResourceRestApi;

beforeAll(async () => {
  api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024 });
  // Every caller the moves name has been seen: alice and sally have uploaded a file.
  await fresh('personal');
  await fresh('persona');
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** The four callers: alice owns person:alice (and belongs to analyst), sam is a sales member, sally administers sales, root the platform. */
const callers = { owner: alice, member: salesMember, personaAdmin: salesAdmin, platformAdmin: root } as const;
type Caller = keyof typeof callers;

/** Where each file lives and who uploads it. */
const files = {
  personal: { library: 'person:alice', uploader: alice },
  persona: { library: 'persona:sales', uploader: salesAdmin },
  global: { library: 'global', uploader: root },
} as const;
type FileKind = keyof typeof files;

interface ResourceActions {
  read: boolean;
  change: boolean;
  delete: boolean;
  move_targets: string[];
  move_to_people: boolean;
  recapture: boolean;
  register: boolean;
  edit_source: boolean;
}

const none: ResourceActions = { read: false, change: false, delete: false, move_targets: [], move_to_people: false, recapture: false, register: false, edit_source: false };
const readOnly: ResourceActions = { ...none, read: true };
// The files are text within the inline preview limit: whoever may change one may also save it from the source editor.
const all = (move_targets: string[]): ResourceActions => ({ read: true, change: true, delete: true, move_targets, move_to_people: false, recapture: true, register: true, edit_source: true });
const admin = (move_targets: string[]): ResourceActions => ({ ...all(move_targets), move_to_people: true });

/** The authority table of spec document 2, spelled out per caller and file. */
const expectedResource: Record<FileKind, Record<Caller, ResourceActions>> = {
  personal: {
    owner: all(['persona:analyst']),
    member: none,
    personaAdmin: none,
    platformAdmin: admin(['person:root', 'persona:admin', 'persona:analyst', 'persona:sales', 'global']),
  },
  persona: {
    owner: none,
    member: readOnly,
    personaAdmin: all(['person:sally']),
    platformAdmin: admin(['person:root', 'persona:admin', 'persona:analyst', 'global']),
  },
  global: {
    owner: readOnly,
    member: readOnly,
    personaAdmin: readOnly,
    platformAdmin: admin(['person:root', 'persona:admin', 'persona:analyst', 'persona:sales']),
  },
};

let copies = 0;
/** A fresh copy of a file of that kind, uploaded by its uploader. */
async function fresh(kind: FileKind): Promise<string> {
  const { library, uploader } = files[kind];
  const form = multipart([
    { name: 'library', value: library },
    { name: 'path', value: 'docs' },
    { name: 'file', filename: `${kind}-${++copies}.txt`, type: 'text/plain', data: `copy ${copies}` },
  ]);
  const res = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(uploader), 'content-type': form.contentType }, body: form.body });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

function json(who: Who, method: string, path: string, body?: unknown): Promise<RawResponse> {
  return send(`${api.url}${path}`, {
    method,
    headers: { ...as(who), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

const accepted = (res: RawResponse) => res.status >= 200 && res.status < 300;
const candidateLibraries = (who: Who) => [`person:${who.subject}`, 'persona:admin', 'persona:analyst', 'persona:sales', 'global'];

describe('allowed actions on a resource', () => {
  const cases = (Object.keys(files) as FileKind[]).flatMap((kind) => (Object.keys(callers) as Caller[]).map((caller) => [kind, caller] as const));

  it.each(cases)('a %s file, seen by the %s: the table\'s actions, each accepted by the routes exactly where offered', async (kind, caller) => {
    const who = callers[caller];
    const id = await fresh(kind);
    // What the caller is offered: on the details answer (or nothing, when it cannot read the file).
    const details = await json(who, 'GET', `/api/v1/resources/${id}`);
    const offered: ResourceActions = details.status === 200 ? details.json.allowed_actions : none;
    expect(offered).toEqual(expectedResource[kind][caller]);
    // The owner's own view of the same file carries the owner's actions, not the caller's.
    const uploaderView = await json(files[kind].uploader, 'GET', `/api/v1/resources/${id}`);
    expect(uploaderView.json.allowed_actions.change).toBe(true);

    expect(details.status === 200).toBe(offered.read);
    expect(accepted(await json(who, 'GET', `/api/v1/resources/${id}/content`))).toBe(offered.read);
    expect(accepted(await json(who, 'PATCH', `/api/v1/resources/${id}`, { description: 'edited' }))).toBe(offered.change);
    const saved = await send(`${api.url}/api/v1/resources/${id}/source?base_version=1`, {
      method: 'PUT',
      headers: { ...as(who), 'content-type': 'text/plain; charset=utf-8' },
      body: 'edited text',
    });
    expect(accepted(saved)).toBe(offered.edit_source);
    const replaced = await send(`${api.url}/api/v1/resources/${id}/content`, {
      method: 'PUT',
      headers: { ...as(who), 'content-type': 'text/plain' },
      body: 'new bytes',
    });
    expect(accepted(replaced)).toBe(offered.change);

    for (const library of candidateLibraries(who).filter((l) => l !== files[kind].library)) {
      const copy = await fresh(kind);
      const moved = await json(who, 'PATCH', `/api/v1/resources/${copy}`, { library });
      expect({ library, accepted: accepted(moved) }).toEqual({ library, accepted: offered.move_targets.includes(library) });
    }
    // Another person's library: offered (for people the platform has seen) only as move_to_people.
    const elsewhere = await fresh(kind);
    const toPerson = files[kind].library === 'person:alice' ? 'person:sally' : 'person:alice';
    expect(accepted(await json(who, 'PATCH', `/api/v1/resources/${elsewhere}`, { library: toPerson }))).toBe(offered.move_to_people);

    // The move-targets route lists the same libraries.
    const targets = await json(who, 'GET', `/api/v1/resources/${id}/move-targets`);
    if (offered.read) {
      expect(targets.status).toBe(200);
      expect(targets.json.libraries).toEqual(offered.move_targets);
      expect(targets.json.people.length > 0).toBe(offered.move_to_people);
    } else {
      expect(targets.status).toBe(404);
    }

    expect(accepted(await json(who, 'DELETE', `/api/v1/resources/${id}`))).toBe(offered.delete);
  });
});

interface FolderActions {
  list: boolean;
  add: boolean;
  describe: boolean;
  delete: boolean;
}

const noFolder: FolderActions = { list: false, add: false, describe: false, delete: false };
const listOnly: FolderActions = { ...noFolder, list: true };
const allFolder: FolderActions = { list: true, add: true, describe: true, delete: true };

const folders = { personal: 'person:alice/docs', persona: 'persona:sales/docs', global: 'global/docs' } as const;

const expectedFolder: Record<FileKind, Record<Caller, FolderActions>> = {
  personal: { owner: allFolder, member: noFolder, personaAdmin: noFolder, platformAdmin: allFolder },
  persona: { owner: noFolder, member: listOnly, personaAdmin: allFolder, platformAdmin: allFolder },
  global: { owner: listOnly, member: listOnly, personaAdmin: listOnly, platformAdmin: allFolder },
};

describe('allowed actions in a folder', () => {
  const cases = (Object.keys(folders) as FileKind[]).flatMap((kind) => (Object.keys(callers) as Caller[]).map((caller) => [kind, caller] as const));

  it.each(cases)('the %s folder, seen by the %s: the table\'s actions on its facet, each accepted by the routes exactly where offered', async (kind, caller) => {
    const who = callers[caller];
    const folder = folders[kind];
    await fresh(kind);
    const facets = await json(who, 'GET', '/api/v1/resources/facets');
    expect(facets.status).toBe(200);
    const facet = (facets.json.folders as { path: string; allowed_actions: FolderActions }[]).find((f) => f.path === folder);
    const offered = facet?.allowed_actions ?? noFolder;
    expect(offered).toEqual(expectedFolder[kind][caller]);

    expect(accepted(await json(who, 'GET', `/api/v1/resources?path=${encodeURIComponent(folder)}`))).toBe(offered.list);
    expect(accepted(await json(who, 'PUT', '/api/v1/resources/folders/description', { path: folder, description: `by ${who.subject}` }))).toBe(offered.describe);
    const created = await json(who, 'POST', '/api/v1/resources/folders', { path: `${folder}/added-${++copies}` });
    expect(accepted(created)).toBe(offered.add);
    if (offered.add) expect(created.json.allowed_actions).toEqual(allFolder);
    const upload = multipart([
      { name: 'library', value: files[kind].library },
      { name: 'path', value: 'docs' },
      { name: 'file', filename: `added-${++copies}.txt`, type: 'text/plain', data: 'x' },
    ]);
    const uploaded = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': upload.contentType }, body: upload.body });
    expect(accepted(uploaded)).toBe(offered.add);

    // An empty folder of its own (made by the platform administrator) to delete.
    const empty = `${folder}/empty-${++copies}`;
    expect((await json(root, 'POST', '/api/v1/resources/folders', { path: empty })).status).toBe(201);
    const emptyFacet = ((await json(who, 'GET', '/api/v1/resources/facets')).json.folders as { path: string; allowed_actions: FolderActions }[]).find((f) => f.path === empty);
    const mayDelete = emptyFacet?.allowed_actions.delete ?? false;
    expect(mayDelete).toBe(offered.delete);
    expect(accepted(await json(who, 'DELETE', `/api/v1/resources/folders?path=${encodeURIComponent(empty)}`))).toBe(mayDelete);
  });

  it('offers adding to a top-level folder but neither describing nor deleting it', async () => {
    const facets = await json(alice, 'GET', '/api/v1/resources/facets');
    const own = (facets.json.folders as { path: string; allowed_actions: FolderActions }[]).find((f) => f.path === 'person:alice')!;
    expect(own.allowed_actions).toEqual({ list: true, add: true, describe: false, delete: false });
    expect((await json(alice, 'PUT', '/api/v1/resources/folders/description', { path: 'person:alice', description: 'x' })).status).toBe(400);
    expect((await json(alice, 'DELETE', `/api/v1/resources/folders?path=person:alice`)).status).toBe(400);
  });
});

describe('moves to a person', () => {
  it('lists the people the platform has seen to a platform administrator, filtered and paged', async () => {
    const id = await fresh('global');
    const page = await json(root, 'GET', `/api/v1/resources/${id}/move-targets?limit=1`);
    expect(page.status).toBe(200);
    expect(page.json.people).toHaveLength(1);
    expect(page.json.next_cursor).not.toBeNull();
    const rest = await json(root, 'GET', `/api/v1/resources/${id}/move-targets?limit=1000&cursor=${page.json.next_cursor}`);
    const people = [...page.json.people, ...rest.json.people];
    // alice (a personal library) and sally (an uploader) are seen; the caller itself is not a person target.
    expect(people).toEqual(expect.arrayContaining(['person:alice', 'person:sally']));
    expect(people).not.toContain('person:root');
    expect(new Set(people).size).toBe(people.length);
    const filtered = await json(root, 'GET', `/api/v1/resources/${id}/move-targets?q=ALI`);
    expect(filtered.json.people).toEqual(['person:alice']);
  });

  it('refuses a platform administrator\'s move to a person the platform has never seen, and accepts a seen one', async () => {
    const id = await fresh('global');
    const unseen = await json(root, 'PATCH', `/api/v1/resources/${id}`, { library: 'person:nobody-ever' });
    expect(unseen.status).toBe(400);
    expect(unseen.json.message).toContain('never seen the person "nobody-ever"');
    expect((await json(root, 'GET', `/api/v1/resources/${id}`)).json.library).toBe('global');
    const listed = await json(root, 'GET', `/api/v1/resources/${id}/move-targets?q=nobody`);
    expect(listed.json.people).toEqual([]);

    const seen = await json(root, 'PATCH', `/api/v1/resources/${id}`, { library: 'person:sally' });
    expect(seen.status).toBe(200);
    expect(seen.json.library).toBe('person:sally');
  });
});
