/**
 * The activities of the resource requests (workflows/archives.ts, workflows/folders.ts): archive
 * extraction and folder rename through the resources service, as the caller who asked. A refusal
 * is answered as a value (requests.ts), so the workflow completes with it; anything else fails the
 * try and Temporal retries it. Both heartbeat while they run (activities/heartbeat.ts); extraction
 * also reports its progress after every member it checks or writes.
 */
import { progress } from './heartbeat.js';
import type { ObjectStore } from '../shared/objstore/index.js';
import {
  extractArchive,
  outcomeOf,
  type ExtractLimits,
  type ExtractRequest,
  type ExtractResult,
  type FolderRenameInput,
  type FolderRenameResult,
  type RequestOutcome,
  type ResourceActor,
  type ResourceService,
  type TableHooks,
} from '../shared/resources/index.js';

/** The types the workflows carry (workflows/ imports activity types only). */
export type { ExtractRequest, ExtractResult, FolderRenameInput, FolderRenameResult, RequestOutcome, ResourceActor };

export interface ResourceRequestActivities {
  extractArchiveMembers(input: { actor: ResourceActor; request: ExtractRequest }): Promise<RequestOutcome<ExtractResult>>;
  renameFolderPaths(input: { actor: ResourceActor; rename: FolderRenameInput }): Promise<RequestOutcome<FolderRenameResult>>;
}

/** What the resource activities work with, composed by the worker's caller (cli/). */
export interface ResourceActivityDeps {
  service: ResourceService;
  /** The object store of the resources' bytes (the connection `resourceConnectionName` names). */
  store: ObjectStore;
  /** `resources.managed.max_upload_bytes`. */
  maxUploadBytes: number;
  /** Extraction ceilings (default EXTRACT_LIMITS). */
  extractLimits?: ExtractLimits;
  /** Registered tables: members that revise a followed file move its tables (shared/tables `tableHooks`). */
  tables?: Pick<TableHooks, 'followNewVersion'>;
}

export function createResourceActivities(deps: ResourceActivityDeps): ResourceRequestActivities {
  return {
    extractArchiveMembers({ actor, request }) {
      return outcomeOf(() =>
        extractArchive(
          {
            service: deps.service,
            store: deps.store,
            maxUploadBytes: deps.maxUploadBytes,
            ...(deps.extractLimits ? { limits: deps.extractLimits } : {}),
            ...(deps.tables ? { tables: deps.tables } : {}),
            progress,
          },
          actor,
          request,
        ),
      );
    },
    renameFolderPaths({ actor, rename }) {
      return outcomeOf(() => deps.service.renameFolder(actor, rename));
    },
  };
}
