/**
 * Resource requests that answer with a Temporal job's result (docs/architecture.md: "a route that
 * must answer with a job's result starts the workflow and awaits it"): folder rename
 * (`renameFolder`) and archive extraction (`extractArchive`). Surfaces see only `ResourceRequests`
 * (worker/resource-requests.ts implements it over a Temporal client). A refusal travels through the
 * workflow as a value (the workflow completes; the same request answers the same refusal) and
 * becomes a ResourceError again at the surface.
 */
import { createHash } from 'node:crypto';
import type { ExtractRequest, ExtractResult } from './archives/extract.js';
import type { FolderRenameInput, FolderRenameResult } from './folder-rename.js';
import { ResourceError, type ResourceActor, type ResourceErrorCode } from './types.js';

export interface RequestRefusal {
  code: ResourceErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type RequestOutcome<T> = { ok: true; result: T } | { ok: false; refusal: RequestRefusal };

export interface ResourceRequests {
  /** Extracts an archive (workflow `extract:{resourceId}:{requestId}`); the same request id answers the same result. */
  extract(actor: ResourceActor, request: ExtractRequest, requestId: string): Promise<ExtractResult>;
  /** Renames a folder (workflow `folder-rename:{library}:{path}`); the same request again answers the same result while it still holds. */
  renameFolder(actor: ResourceActor, input: FolderRenameInput): Promise<FolderRenameResult>;
}

/** Runs `work`, answering a refusal (ResourceError) as a value; anything else is thrown (Temporal retries it). */
export async function outcomeOf<T>(work: () => Promise<T>): Promise<RequestOutcome<T>> {
  try {
    return { ok: true, result: await work() };
  } catch (err) {
    if (err instanceof ResourceError) return { ok: false, refusal: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    throw err;
  }
}

/** The result, or the refusal thrown again as the ResourceError it was. */
export function resultOf<T>(outcome: RequestOutcome<T>): T {
  if (outcome.ok) return outcome.result;
  throw new ResourceError(outcome.refusal.code, outcome.refusal.message, outcome.refusal.details);
}

/** What identifies a request: who asked and what they asked for (kept in the workflow's memo). */
export function requestFingerprint(subject: string, request: unknown): string {
  return createHash('sha256').update(JSON.stringify([subject, request])).digest('hex');
}

/**
 * The request id of an extract call that names none: a digest of the caller, the archive and
 * its head version, and the selection, so a retried call finds the first call's workflow (and a
 * new version of the archive is extracted anew).
 */
export function defaultExtractRequestId(subject: string, archive: { id: string; version: number }, request: Pick<ExtractRequest, 'members' | 'destination'>): string {
  return requestFingerprint(subject, [archive.id, archive.version, request.members ?? [], request.destination]).slice(0, 32);
}

/** Request ids become part of a workflow id: letters, digits, `-`, `_`, `.`, at most 64. */
export function requestIdProblem(requestId: string): string | undefined {
  return /^[A-Za-z0-9._-]{1,64}$/.test(requestId) ? undefined : 'request_id is 1 to 64 letters, digits, `.`, `_` or `-`';
}
