/**
 * Archive extraction (docs/resources.md, "Extracting archives"): the members of a zip, tar or
 * tar.gz resource written out as resources beside it or under a folder named for it. The
 * extractArchive workflow (workflows/archives.ts) runs this in one activity.
 *
 * All or nothing per archive for every rule: a first pass reads every selected member (streamed,
 * never held) and checks names, kinds, executables (by name, type and bytes, the upload rule),
 * ceilings and address clashes; only when all pass does the second pass write them, member by
 * member, each through the resources service (`if_exists: skip_unchanged`, so a repeated write
 * of the same bytes — a retried activity — adds no version). A failure of the store or database
 * during the second pass leaves the members written so far; the activity's retry (or the caller's
 * retry with the same request id) writes the rest.
 *
 * The archive is read from a local temp file (zip needs random access): its bytes are copied from
 * platform storage, bounded by `max_upload_bytes`, and removed when extraction ends.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../../objstore/index.js';
import { may } from '../authority.js';
import { contentTypeFromName } from '../content-type.js';
import { executableByName, ExecutableSniffer } from '../executables.js';
import { formatLibraryPath, parseLibrary } from '../library.js';
import { canonicalUri } from '../uri.js';
import { ResourceError, type CreateOutcome, type CreateResult, type Library, type ResourceActor, type ResourceService, type ResourceView, type WriteOrigin } from '../types.js';
import { archiveFolderName, memberMatcher, memberTarget, type MemberTarget } from './members.js';
import { archiveFormat, forEachMember, type ArchiveFormat, type ArchiveMember } from './readers.js';

/**
 * Ceilings against zip bombs (defaults, docs/resources.md): members written per archive; total
 * uncompressed bytes of the selected members; and the ratio of a member's uncompressed to
 * compressed bytes (for tar.gz: of all bytes read so far to the archive's size), judged once a
 * member (or the tar.gz) passes `ratioFloorBytes`, since small text compresses very well.
 * Each member is also at most `resources.managed.max_upload_bytes`, like any upload.
 */
export interface ExtractLimits {
  maxMembers: number;
  maxTotalBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

export const EXTRACT_LIMITS: ExtractLimits = {
  maxMembers: 10_000,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

/** The temp directory of one extraction (under the OS temp dir), removed when it ends. */
export const EXTRACT_TEMP_PREFIX = 'resource-extract-';

export type ExtractDestination = 'beside' | 'folder';

export interface ExtractRequest {
  /** The archive resource's id. */
  resourceId: string;
  /** Globs over member paths; none or empty: every member. */
  members?: string[];
  /** `beside` (default): in the archive's folder, keeping the archive's folders; `folder`: under a folder named for the archive there. */
  destination: ExtractDestination;
  /** Recorded on each member's version (the caller's origin). */
  origin: WriteOrigin;
}

/** A table registration change a write caused (shared/tables: a followed table moved, a correction written). */
export interface TableChange {
  table: string;
  change: string;
}

/** What registered tables did after a new version was uploaded, for the upload's reply (shared/tables). */
export interface UploadTableReport {
  table_changes: TableChange[];
  /** The corrected copy written above the upload, when a table corrects the file. */
  corrected?: { version: number; reference: string };
}

/** The tables' hooks the writers of new versions call (composed by cli/ from shared/tables). */
export interface TableHooks {
  /** After an upload (REST, manage_resource): tables that correct the file move, corrected if need be. */
  afterUpload(actor: ResourceActor, resourceId: string): Promise<UploadTableReport>;
  /** After an export or extraction wrote `version`: followed tables move to it. */
  followNewVersion(resourceId: string, version: number): Promise<TableChange[]>;
  /** The tables over a file the actor may see, and where each stands (for the resource's view). */
  tablesOf(actor: ResourceActor, resourceId: string): Promise<RegisteredTable[]>;
}

/**
 * What the tables over a file did about the version a writer just wrote (`follow`: the tables'
 * followNewVersion, when tables are registered at all): nothing when the write stored nothing new.
 */
export async function tablesAfterWrite(follow: TableHooks['followNewVersion'] | undefined, created: CreateResult): Promise<TableChange[]> {
  return created.outcome === 'unchanged' || !follow ? [] : follow(created.resource.id, created.resource.version);
}

/** A table over a file, as the file's view shows it. */
export interface RegisteredTable {
  table: string;
  connection: string;
  /** The version it reads; null while its first correction runs. */
  version: number | null;
  /** Where it stands in words: pinned at an older version, following, correcting. */
  state: string;
}

export interface ExtractedMember {
  /** The member's path in the archive. */
  member: string;
  uri: string;
  version: number;
  reference: string;
  /** created, revised (a file was there), or unchanged (the same bytes were there). */
  outcome: CreateOutcome;
  table_changes: TableChange[];
}

export interface ExtractResult {
  archive: { reference: string; uri: string; version: number };
  /** `<library>/<folder path>` the members were filed under. */
  destination: string;
  members: ExtractedMember[];
}

export interface ExtractDeps {
  service: ResourceService;
  /** The object store the resources' bytes live on. */
  store: ObjectStore;
  /** `resources.managed.max_upload_bytes`: the archive's copy and each member. */
  maxUploadBytes: number;
  limits?: ExtractLimits;
  /** Called after each member of each pass (the activity's heartbeat). */
  progress?: (detail: { pass: 'check' | 'write'; members: number }) => void;
  /** Registered tables: a member that revised a file moves the tables following it. */
  tables?: Pick<TableHooks, 'followNewVersion'>;
}

interface PlannedMember {
  name: string;
  target: MemberTarget;
}

function refuse(member: string, problem: string, code: 'invalid' | 'unsupported' | 'too_large' = 'invalid'): ResourceError {
  return new ResourceError(code, `member "${member}" is refused: ${problem}; nothing was extracted`, { member });
}

export async function extractArchive(deps: ExtractDeps, actor: ResourceActor, request: ExtractRequest): Promise<ExtractResult> {
  const limits = deps.limits ?? EXTRACT_LIMITS;
  const { resource, object } = await deps.service.headObject(actor, request.resourceId);
  const format = archiveFormat(resource.file_name);
  if (!format) throw new ResourceError('unsupported', `"${resource.file_name}" is not an archive extraction reads (zip, tar, tar.gz, tgz)`);
  const library = parseLibrary(resource.library, actor.subject);
  // The members are new files here: checked now, before anything is read, so a refusal costs nothing.
  if (!may(actor, 'add', { library })) throw new ResourceError('forbidden', `you cannot add files to ${resource.library}, where this archive would be extracted`);
  const base = destinationFolder(resource, request.destination);
  const dir = await mkdtemp(join(tmpdir(), EXTRACT_TEMP_PREFIX));
  try {
    const path = join(dir, 'archive');
    await copyToFile(deps.store, object, path, deps.maxUploadBytes);
    const plan = await checkMembers(deps, limits, path, format, resource.size, request, base);
    await checkAddresses(deps.service, actor, library, plan);
    const planned = new Map(plan.map((p) => [p.name, p.target]));
    const members: ExtractedMember[] = [];
    await forEachMember(path, format, async (member, open) => {
      const target = member.kind === 'file' ? planned.get(member.name) : undefined;
      if (!target) return;
      const created = await deps.service.create(actor, {
        library,
        path: target.folderPath,
        file_name: target.fileName,
        if_exists: 'skip_unchanged',
        change_summary: `extracted from ${resource.file_name}`,
        origin: request.origin,
        body: await open(),
      });
      const tableChanges = await tablesAfterWrite(deps.tables?.followNewVersion, created);
      members.push({ member: member.name, uri: created.resource.uri, version: created.resource.version, reference: created.resource.reference, outcome: created.outcome, table_changes: tableChanges });
      deps.progress?.({ pass: 'write', members: members.length });
    });
    return {
      archive: { reference: resource.reference, uri: resource.uri, version: resource.version },
      destination: formatLibraryPath(library, base),
      members,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function destinationFolder(archive: ResourceView, destination: ExtractDestination): string {
  if (destination === 'beside') return archive.path;
  const named = archiveFolderName(archive.file_name);
  if (named === '') throw new ResourceError('invalid', `"${archive.file_name}" has no letter or digit to name a folder after; extract it beside the archive`);
  return archive.path === '' ? named : `${archive.path}/${named}`;
}

/** The archive's bytes into a local file, at most `maxBytes`. */
async function copyToFile(store: ObjectStore, object: { bucket: string; key: string }, path: string, maxBytes: number): Promise<void> {
  const got = await store.getObject(object.bucket, object.key);
  let seen = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) return done(new ResourceError('too_large', `the archive is larger than resources.managed.max_upload_bytes (${maxBytes})`));
      done(null, chunk);
    },
  });
  await pipeline(got.body, bounded, createWriteStream(path));
}

/**
 * The first pass: every selected member read once and checked against every rule and ceiling.
 * Answers the members to write, in archive order.
 */
async function checkMembers(
  deps: ExtractDeps,
  limits: ExtractLimits,
  path: string,
  format: ArchiveFormat,
  archiveBytes: number,
  request: ExtractRequest,
  base: string,
): Promise<PlannedMember[]> {
  const selected = memberMatcher(request.members);
  const plan: PlannedMember[] = [];
  const addresses = new Map<string, string>();
  let total = 0;
  // tar: every member's bytes pass through (drained when not selected), so all of them count.
  let scanned = 0;
  await readable(format, forEachMember(path, format, async (member, open) => {
    if (format !== 'zip') {
      scanned += member.size;
      refuseTarBomb(member.name, scanned, format === 'tar.gz' ? archiveBytes : scanned, limits);
    }
    if (member.kind === 'directory' || !selected(member.name.replace(/\/+$/, ''))) return;
    if (member.kind !== 'file') throw refuse(member.name, refusedKinds[member.kind], 'unsupported');
    const rule = memberTarget(member.name, base);
    if (!rule.ok) throw refuse(member.name, rule.problem);
    const exe = executableByName(rule.target.fileName, contentTypeFromName(rule.target.fileName));
    if (exe) throw refuse(member.name, exe, 'unsupported');
    const address = `${rule.target.folderPath}/${rule.target.fileName}`;
    const clash = addresses.get(address);
    if (clash !== undefined) throw refuse(member.name, `it would be filed at the same address as "${clash}" (${address})`);
    addresses.set(address, member.name);
    if (member.size > deps.maxUploadBytes) throw refuse(member.name, `it declares ${member.size} bytes, more than the upload limit of ${deps.maxUploadBytes} (resources.managed.max_upload_bytes)`, 'too_large');
    if (plan.length + 1 > limits.maxMembers) throw new ResourceError('too_large', `the archive selects more than ${limits.maxMembers} members; nothing was extracted`, { limit: limits.maxMembers });
    const body = await open();
    const before = total;
    total += await checkBytes(member, body, {
      ...limits,
      maxMemberBytes: deps.maxUploadBytes,
      totalBefore: before,
      // tar.gz: one compressed stream, so the ratio is of everything read so far to the archive.
      ratioOf: format === 'tar.gz' ? { bytesBefore: before, compressed: archiveBytes } : { bytesBefore: 0, compressed: member.compressedSize ?? member.size },
    });
    plan.push({ name: member.name, target: rule.target });
    deps.progress?.({ pass: 'check', members: plan.length });
  }));
  if (plan.length === 0) throw new ResourceError('invalid', request.members?.length ? `no member of the archive matches ${request.members.join(', ')}` : 'the archive holds no files');
  return plan;
}

/** A file already at a member's address is revised by the extraction: the caller must be allowed to change it. */
async function checkAddresses(service: ResourceService, actor: ResourceActor, library: Library, plan: readonly PlannedMember[]): Promise<void> {
  for (const { name, target } of plan) {
    const uri = canonicalUri(library, target.folderPath, target.fileName);
    let existing: ResourceView;
    try {
      existing = await service.resolve(actor, uri);
    } catch (err) {
      if (err instanceof ResourceError && err.code === 'not_found') continue;
      throw err;
    }
    // An alias (a file that moved away) is no clash: the address is free.
    if (existing.uri === uri && !existing.allowed_actions.change) {
      throw new ResourceError('forbidden', `member "${name}" would revise ${uri}, which you cannot change; nothing was extracted`, { member: name, existing: existing.reference });
    }
  }
}

/** The first pass reads only the local copy: what fails there, other than a rule, is a damaged archive. */
async function readable(format: ArchiveFormat, pass: Promise<void>): Promise<void> {
  try {
    await pass;
  } catch (err) {
    if (err instanceof ResourceError) throw err;
    throw new ResourceError('invalid', `the archive cannot be read as ${format}: ${(err as Error).message}; nothing was extracted`);
  }
}

/** A tar's ceilings, judged on the header sizes (exact in tar) before a member's bytes are read or drained. */
function refuseTarBomb(member: string, scanned: number, compressed: number, limits: ExtractLimits): void {
  if (scanned > limits.maxTotalBytes) {
    throw new ResourceError('too_large', `the archive holds more than ${limits.maxTotalBytes} bytes uncompressed (a zip bomb?); nothing was extracted`, { member, limit: limits.maxTotalBytes });
  }
  if (scanned > limits.ratioFloorBytes && scanned > limits.maxRatio * Math.max(compressed, 1)) {
    throw refuse(member, `the archive expands more than ${limits.maxRatio} times its compressed size (a zip bomb)`, 'too_large');
  }
}

const refusedKinds: Record<Exclude<ArchiveMember['kind'], 'file' | 'directory'>, string> = {
  symlink: 'symbolic links are refused',
  hardlink: 'hard links are refused',
  device: 'devices, FIFOs and other special files are refused',
  encrypted: 'encrypted members cannot be read',
};

/** Reads a member's bytes once: counted against the ceilings and sniffed for executables. Answers its size. */
async function checkBytes(
  member: ArchiveMember,
  body: Readable,
  opts: ExtractLimits & { maxMemberBytes: number; totalBefore: number; ratioOf: { bytesBefore: number; compressed: number } },
): Promise<number> {
  const sniffer = new ExecutableSniffer();
  let bytes = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      const exe = sniffer.push(chunk);
      if (exe) throw refuse(member.name, `executables are refused: its content is ${exe}`, 'unsupported');
      if (bytes > opts.maxMemberBytes) throw refuse(member.name, `it is larger than the upload limit of ${opts.maxMemberBytes} bytes (resources.managed.max_upload_bytes)`, 'too_large');
      if (opts.totalBefore + bytes > opts.maxTotalBytes) {
        throw new ResourceError('too_large', `the selected members hold more than ${opts.maxTotalBytes} bytes uncompressed (a zip bomb?); nothing was extracted`, {
          member: member.name,
          limit: opts.maxTotalBytes,
        });
      }
      const expanded = opts.ratioOf.bytesBefore + bytes;
      if (expanded > opts.ratioFloorBytes && expanded > opts.maxRatio * Math.max(opts.ratioOf.compressed, 1)) {
        throw refuse(member.name, `it expands more than ${opts.maxRatio} times its compressed size (a zip bomb)`, 'too_large');
      }
    }
  } catch (err) {
    body.destroy();
    throw err;
  }
  const exe = sniffer.end();
  if (exe) throw refuse(member.name, `executables are refused: its content is ${exe}`, 'unsupported');
  return bytes;
}

