/**
 * platform.yaml sections of resources and the portal: resources (document 1 MCP resources and
 * document 2 managed resources), portal and admin (see schema.ts).
 *
 * Keys this implementation adds here (not in the spec; documented in platform.example.yaml)
 * - resources.index[] rule fields (document 2 leaves them "not shown"): see indexRule below.
 */

import { z } from 'zod';
import { BUILTIN_PORTAL_TITLE } from './builtins.js';
import { bool, dur, emptyOrHttpUrl, int, int64, obj, oneOf, optHttpUrl, optStr, str, strArray } from './schema-fields.js';

// ---------------------------------------------------------------------------
// resources (document 1 MCP resources + document 2 managed resources)

const customResource = obj({
  uri: str().min(1, 'must not be empty'),
  name: str().min(1, 'must not be empty'),
  description: str().default(''),
  mime_type: str().min(1, 'must not be empty'),
  content: str().optional(),
  content_file: optStr(),
});

/**
 * One resources.index rule. Document 2 names what a rule decides on (folder, file
 * type, size, library, origin of the write) but not the fields; these are ours
 * (docs/resources.md, "Search indexing", has examples; shared/search/rules.ts applies them).
 * Rules are tried in order; the first whose every given condition matches decides
 * the search setting of a file whose own setting is Default. With no matching rule the
 * spec's built-in behaviour applies (tables of values on details, everything else on
 * contents); a file over 8 MB is indexed on metadata alone whatever a rule says.
 */
const indexRule = obj({
  /** Glob over the folder path inside the library (`templates/**`, `data/*`; '' = the library root). */
  folder: optStr(),
  /** MIME types or patterns (`text/*`, `application/pdf`) or file extensions (`.csv`). */
  types: strArray().optional(),
  /** Size bounds of the head version, inclusive. */
  min_bytes: int64().optional(),
  max_bytes: int64().optional(),
  /** Kinds of library (`person`, `persona`, `global`) or one persona's library (`persona:<name>`). */
  library: z.array(str().regex(/^(person|persona|global|persona:.+)$/, 'expected person, persona, global or persona:<name>')).optional(),
  /** Origin of the head version's write: portal upload, agent tool, managed script, export tool, webhook compaction. */
  origin: z.array(oneOf(['portal', 'agent', 'script', 'export', 'webhook'])).optional(),
  /** The search setting applied: Contents, Details only, Not indexed. */
  index: oneOf(['contents', 'details_only', 'not_indexed']),
});

/**
 * resources.search.embeddings (ours; docs/resources.md "Semantic search"): the embedding provider
 * whose vectors rank resources by meaning beside the lexical ranking (reciprocal rank fusion). None
 * by default: no model ships with the platform. `openai` is any OpenAI-compatible `POST
 * {url}/embeddings`; `ollama` is Ollama's `POST {url}/api/embed`. Vectors live in pgvector; without
 * the extension, or with provider none, search is lexical only (said once in the log at startup).
 */
const searchEmbeddings = obj({
  provider: oneOf(['none', 'openai', 'ollama']).default('none'),
  /** Base URL: `https://api.openai.com/v1` (openai) or `http://127.0.0.1:11434` (ollama) when omitted. */
  url: optHttpUrl(),
  /** The embedding model, e.g. `text-embedding-3-small` or `nomic-embed-text`; required with a provider. */
  model: optStr(),
  /** Bearer key of the provider (`${OPENAI_API_KEY}`); never logged. */
  api_key: optStr(),
  /** Length of the vectors asked for, for models that can shorten theirs (OpenAI text-embedding-3). */
  dimensions: int({ min: 1, max: 16_000 }).optional(),
  /** One request's time limit. */
  timeout: dur('30s'),
  /** Texts per request. */
  batch: int({ min: 1, max: 2048 }).default(32),
  /** Further attempts after a failed request (network error, 429, 5xx), with a doubling delay. */
  retries: int({ min: 0, max: 10 }).default(2),
}).superRefine((value, ctx) => {
  if (value.provider !== 'none' && value.model === undefined) {
    ctx.addIssue({ code: 'custom', path: ['model'], message: `provider ${value.provider} needs the embedding model's name` });
  }
});

export const resources = obj({
  enabled: bool().default(false),
  custom: z.array(customResource).default([]),
  managed: obj({
    max_upload_bytes: int64().default(104_857_600),
    max_versions: int({ min: 1 }).default(10),
    /** ours: the objstore instance holding resource bytes (bucket `resources`); default portal.s3_connection, else the first instance. */
    connection: optStr(),
  }).prefault({}),
  index: z.array(indexRule).default([]),
  search: obj({ embeddings: searchEmbeddings.prefault({}) }).prefault({}),
  /**
   * ours: the PDF reader of each process (text for search and fetch, first pages for thumbnails;
   * shared/pdf). `threads` read at once — one caller never holds them all —, `queue` PDFs may wait
   * (a caller at most a quarter of them); past it a PDF is refused as busy, to be tried again.
   */
  pdf: obj({
    threads: int({ min: 1, max: 16 }).default(2),
    queue: int({ min: 4, max: 10_000 }).default(32),
  }).prefault({}),
});

// ---------------------------------------------------------------------------
// portal, admin

export const portal = obj({
  enabled: bool().default(false),
  title: str().default(BUILTIN_PORTAL_TITLE),
  logo: str().default(''),
  logo_light: str().default(''),
  logo_dark: str().default(''),
  s3_connection: optStr(),
  s3_bucket: optStr(),
  s3_prefix: str().default(''),
  public_base_url: emptyOrHttpUrl(),
  max_content_size: int64().default(10_485_760),
  implementor: obj({
    name: str().default(''),
    logo: emptyOrHttpUrl(),
    url: emptyOrHttpUrl(),
  }).prefault({}),
});

export const admin = obj({
  enabled: bool().default(false),
  persona: str().min(1, 'must not be empty').default('admin'),
  path_prefix: str()
    .regex(/^\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-]$/, 'expected a URL path like /api/v1/admin (leading /, no trailing /)')
    .default('/api/v1/admin'),
});
