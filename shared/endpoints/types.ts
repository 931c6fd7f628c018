/**
 * Scripted endpoints' model (spec document 3, "Endpoint binding"; docs/endpoints.md): a binding
 * of a script's `handle(req)` to `/endpoints/{endpoint}`, its limits, and what one request reads.
 */
import type { EntryPoint, ScriptState } from '../scripts/index.js';

export const AUTH_MODES = ['signed_in', 'public'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Methods a binding may answer (HEAD is answered wherever GET is, and is not listed). */
export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

/** Defaults and maxima of the binding's fields (spec: "Endpoint binding" and "Limits"). */
export const BINDING_LIMITS = {
  timeoutSeconds: { default: 10, max: 60 },
  /**
   * Ours beyond the spec's default: at least the sandbox's floor (the QuickJS build's initial 16 MiB
   * memory), at most 256 MiB, so 32 handlers at their ceilings stay within 8 GiB on one replica.
   */
  maxMemoryBytes: { default: 64 * 1024 * 1024, min: 16 * 1024 * 1024, max: 256 * 1024 * 1024 },
  maxBodyBytes: { default: 1024 * 1024, max: 10 * 1024 * 1024 },
  /** Per minute per replica; the maxima (ours) keep a typo from turning a limit off. */
  rateLimit: { default: 600, max: 100_000 },
  callerRateLimit: { default: 120, max: 100_000 },
  /** Ours: the longest path template and the most allowed origins a binding holds. */
  maxPathLength: 256,
  maxAllowedOrigins: 50,
  /** Handlers running at once on one replica. */
  concurrentHandlers: 32,
  /** Days a failed request is kept. */
  failureRetentionDays: 7,
} as const;

/** Endpoint names: lowercase letters, digits, hyphens, underscores (at most 63, as script names). */
export const ENDPOINT_NAME = /^[a-z0-9_-]{1,63}$/;

export interface EndpointBinding {
  endpoint: string;
  scriptId: string;
  methods: EndpointMethod[];
  /** Template under the name ('' or e.g. `/{id}`, `/items/{id}`): `{x}` takes one segment, read as req.params.x. */
  path: string;
  authMode: AuthMode;
  openReads: boolean;
  timeoutSeconds: number;
  maxMemoryBytes: number;
  maxBodyBytes: number;
  allowedOrigins: string[];
  rateLimit: number;
  callerRateLimit: number;
  enabled: boolean;
  createdBy: string;
  createdAt: Date;
  updatedBy: string;
  /** The binding's write time (a change takes effect on the next request on every replica). */
  updatedAt: Date;
}

/** What one request reads, in one query: the binding and its script's current version. */
export interface EndpointTarget {
  binding: EndpointBinding;
  script: {
    id: string;
    name: string;
    state: ScriptState;
    version: number;
    source: string;
    /** The current version's author's roles: the principal script:<name> acts with them. */
    authorRoles: string[];
    entryPoints: EntryPoint[];
    /** The script's write time. */
    updatedAt: Date;
  };
}

/** A failed request as endpoint_list and the portal show it (the script's error: owner and administrators only). */
export interface EndpointFailureView {
  id: string;
  endpoint: string;
  script_id: string | null;
  version: number | null;
  method: string;
  status: number;
  error: string;
  duration_ms: number;
  session_id: string;
  occurred_at: string;
}
