/**
 * Zod schemas of the managed-resources REST routes: they validate requests and document every
 * route in /api/openapi.json. Answers carry exactly the documented fields (others are dropped),
 * so the OpenAPI document stays the truth about the API; error bodies stay open for details.
 */
import { z } from 'zod';
import { EDITED_IN_PORTAL, INLINE_PREVIEW_BYTES, MAX_FACET_DEPTH, MAX_LIST_LIMIT, MAX_PEOPLE_LIMIT, MAX_TAG_CHARS, MAX_TAGS } from '../../shared/resources/index.js';

/** The tag limits the service applies (names.ts), so the document states the rule the service keeps. */
const tagListSchema = z.array(z.string().max(MAX_TAG_CHARS)).max(MAX_TAGS);

/** Bytes in a body (a form's file part, a raw body, a download), as OpenAPI writes them. */
export function binarySchema(description: string) {
  return z.any().meta({ type: 'string', format: 'binary', description });
}

export const librarySchema = z
  .string()
  .min(1)
  .max(300)
  .describe('Library: `personal` (the caller\'s own), `persona:<name>`, `global`, or `person:<subject>` (platform administrators)');

export const searchSettingSchema = z.enum(['default', 'contents', 'details_only', 'not_indexed']).describe('Search setting');
export const ifExistsSchema = z
  .enum(['fail', 'skip_unchanged', 'replace'])
  .describe(
    'What to do when a file of that name is already in that folder: `fail` (default) answers 409; `skip_unchanged` answers ' +
      '`unchanged` when the bytes hash the same, else writes a new version (`revised`); `replace` always writes a new version',
  );
export const sortSchema = z.enum(['name', 'name_desc', 'updated', 'updated_asc', 'size', 'size_desc', 'last_read', 'last_read_asc']);

export const errorSchema = z
  .object({
    error: z.string().describe('Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, …'),
    message: z.string().describe('What went wrong, naming the rule broken or the colliding file'),
  })
  .loose()
  .describe('Error; some refusals add details (for example the counts of what still points at a file)');

export const resourceActionsSchema = z
  .object({
    read: z.boolean().describe('Details, download, versions, usage'),
    change: z.boolean().describe('Edit details, move to another folder, replace content, restore a version'),
    delete: z.boolean().describe('Delete (references still need force on manage_resource)'),
    move_targets: z.array(z.string()).describe('Libraries the file may be moved into: own, personas, global (never its current one)'),
    move_to_people: z.boolean().describe('Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them'),
    recapture: z.boolean().describe('Recapture the thumbnail'),
    register: z.boolean().describe('Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one)'),
    edit_source: z
      .boolean()
      .describe(`Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (${INLINE_PREVIEW_BYTES} bytes)`),
  })
  .describe("The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted");

export const folderActionsSchema = z
  .object({
    list: z.boolean().describe('List its files'),
    add: z.boolean().describe('Add here: upload into it, create a folder in it'),
    describe: z.boolean().describe('Describe it (not a top-level folder)'),
    delete: z.boolean().describe('Delete it when empty (not a top-level folder)'),
  })
  .describe("The caller's allowed actions in the folder, by the rules the routes enforce");

const thumbnailVariantSchema = z.enum(['light', 'dark', 'image']);

/** docs/resources.md, "Thumbnails": the state table as the answer shows it. */
export const thumbnailSchema = z
  .object({
    state: z.enum(['icon', 'none', 'drawing', 'drawn', 'failed', 'stale']).describe('icon: never drawn (family or bound); stale: the old tile shows until the new one lands'),
    variants: z.array(thumbnailVariantSchema).describe('Variants GET …/thumbnail serves now: light and dark for documents, image for the others'),
    drawn_from: z.object({ version: z.number().int(), at: z.string() }).optional().describe('The file version the tile was drawn from, and its moment'),
    drawn_at: z.string().optional(),
    failure: z.object({ reason: z.string(), variant: thumbnailVariantSchema }).optional().describe('state failed: why, and which variant'),
    icon_reason: z.enum(['family', 'too_large']).optional(),
  })
  .describe('A resource\'s thumbnail');

export const thumbnailQuerySchema = z.object({
  variant: thumbnailVariantSchema.default('light').describe('light or dark for a document; image for SVG, PDF and raster images (light and dark answer it too)'),
});

export const resourceSchema = z
  .object({
    id: z.string().describe('Stable id (UUIDv7), unchanged by replace, move and rename'),
    library: z.string().describe('person:<subject>, persona:<name> or global'),
    path: z.string().describe("Folder path inside the library; '' at the library root"),
    file_name: z.string(),
    display_name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    content_type: z.string(),
    size: z.number().int().describe('Bytes of the head version'),
    content_sha256: z.string().nullable().describe('SHA-256 of the head version (null for a legacy file with no recorded hash)'),
    uploader: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    version: z.number().int().describe('Head version number'),
    reference: z.string().describe('mcp:resource:<id>'),
    uri: z.string().describe('Canonical mcp:// URI'),
    search_setting: searchSettingSchema,
    last_read_at: z.string().nullable().optional().describe('Last content read (platform administrators only)'),
    allowed_actions: resourceActionsSchema,
    thumbnail: thumbnailSchema.optional().describe('Thumbnail state (GET by id only)'),
  })
  .describe('A managed resource');

/** What the tables over a file did after its new version (shared/tables), when they did anything. */
const tablesAfterUploadSchema = z
  .object({
    table_changes: z.array(z.object({ table: z.string(), change: z.string() })),
    corrected: z.object({ version: z.number().int(), reference: z.string() }).optional().describe('The corrected copy written above the upload'),
  })
  .describe('Registered tables that correct the file: moved to the upload, or to a corrected copy written above it (docs/resources.md, "Table registration")');

export const createdSchema = resourceSchema
  .extend({ outcome: z.enum(['created', 'revised', 'unchanged']).describe('created (201), revised or unchanged (200)'), tables: tablesAfterUploadSchema.optional() })
  .describe('The resource as stored, with the outcome of the upload');

export const replacedSchema = resourceSchema.extend({ tables: tablesAfterUploadSchema.optional() }).describe('The resource with its new head version');

export const versionSchema = z
  .object({
    version: z.number().int(),
    uploader: z.string(),
    created_at: z.string(),
    size: z.number().int(),
    content_type: z.string(),
    content_sha256: z.string().nullable(),
    change_summary: z.string().nullable(),
    restored_from: z.number().int().nullable().describe('On a restore: the version whose bytes were copied'),
    origin: z
      .enum(['portal', 'agent', 'script', 'export', 'webhook'])
      .nullable()
      .describe('Where the write came from: portal (a person), agent (an MCP tool call), script, export (platform.export), webhook (compaction); null when unknown (written before origins were recorded)'),
  });

export const facetSchema = z
  .object({
    path: z.string().describe("<library>/<folder path>; the library itself when the folder path is ''"),
    library: z.string(),
    count: z.number().int().describe('Files filed in this folder or beneath it'),
    direct_count: z.number().int().describe('Files filed directly in this folder'),
    last_changed_at: z.string().nullable().describe('Last file written into, removed from or moved out of anything beneath; null when nothing ever was'),
    description: z.string(),
    allowed_actions: folderActionsSchema,
  });

const doorCounts = z.record(z.string(), z.number().int()).describe('Reads per door: resources_read, search_fetch, portal_download, portal_preview');
export const usageSchema = z
  .discriminatedUnion('recorded', [
    z
      .object({
        recorded: z.literal(true),
        last_read_at: z.string().nullable().describe('Last content read on record (image tiles do not count)'),
        never_read: z.boolean().describe('The file is at least 30 days old and no content read is on record'),
        last_30_days: doorCounts,
        last_90_days: doorCounts,
        retention_days: z.number().int().describe('audit.retention_days: no window reaches further back'),
      })
      .describe('Usage counted from the audit trail'),
    z
      .object({ recorded: z.literal(false), message: z.string().describe('Why: usage is not recorded while audit is off') })
      .describe('audit.enabled is false: reads are not recorded, so there is no usage to show (not zeros)'),
  ])
  .describe('Content reads over the last 30 and 90 days by door, from the audit trail; or, with audit off, that usage is not recorded');

export const usedBySchema = z
  .object({
    assets: z.number().int().describe('Assets whose content references the file (all of them, named or not)'),
    prompts: z.number().int(),
    tables: z.number().int(),
    referencing_assets: z
      .array(
        z.object({
          id: z.string().describe('Asset id (its portal page is /portal/assets/<id>)'),
          name: z.string(),
          public_link: z.boolean().describe('The asset carries a live public share link'),
        }),
      )
      .describe('The referencing assets the caller may open (theirs, shared with them privately, or every one for a platform administrator), newest first'),
    assets_not_shown: z.number().int().describe('Referencing assets the caller may not open: counted, never named'),
    public_link: z.boolean().describe('Some referencing asset, named or not, carries a live public share link'),
  })
  .describe('What points at the file: counts of assets, prompts and registered tables, and the referencing assets the caller may open');

export const writerSchema = z
  .object({
    kind: z.enum(['person', 'agent_session', 'script']),
    id: z.string().describe('Subject, MCP session id or script id'),
    display: z.string(),
    created: z.boolean().describe('true: created the file; false: only modified it'),
    last_written_at: z.string(),
  });

export const writersSchema = z.object({ items: z.array(writerSchema), next_cursor: z.null() });

export const idParams = z.object({ id: z.string().min(1).max(200).describe('Resource id') });

export const listQuerySchema = z.object({
  path: z
    .string()
    .max(600)
    .optional()
    .describe(
      "Folder as <library>/<folder path> (e.g. `global/templates`, `persona:sales`); absent or '' is the unnarrowed listing: every library the caller may list (every library for a platform administrator)",
    ),
  direct: z
    .stringbool()
    .optional()
    .describe('true: only files filed directly in the folder; else everything beneath it. A top-level root (no path, or a library alone) lists no files with true'),
  sort: sortSchema
    .optional()
    .describe(
      'name (default), name_desc, updated (newest first), updated_asc, size (smallest first), size_desc; platform administrators also ' +
        'last_read (most recently read first, never read last) and last_read_asc (never read first)',
    ),
  cursor: z.string().max(2000).optional().describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`Page size (1-${MAX_LIST_LIMIT}, default 100)`),
});

export const facetsQuerySchema = z.object({
  path: z
    .string()
    .max(600)
    .optional()
    .describe("Subtree as <library>/<folder path> (e.g. `global/templates`, `person:<subject>`); absent or '' is the root of all libraries"),
  depth: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_FACET_DEPTH)
    .optional()
    .describe(`Levels beneath \`path\` to answer, its own entry included (1: its children; at the root, 1 is the libraries); absent: every level (1-${MAX_FACET_DEPTH})`),
});

export const listSchema = z.object({
  items: z.array(resourceSchema),
  next_cursor: z.string().nullable().describe('Cursor of the next page; null on the last page'),
});

export const versionsSchema = z.object({ items: z.array(versionSchema), next_cursor: z.null() });

/** Upload form fields (each a form field; `tags` repeats), in the order they must come. */
export const uploadFieldsSchema = z.strictObject({
  library: librarySchema.default('personal'),
  path: z.string().max(600).default('').describe('Folder path inside the library; may be empty (the library root)'),
  display_name: z.string().max(500).optional().describe('Defaults to the file name without extension'),
  description: z.string().optional(),
  tags: tagListSchema.optional().describe(`Repeat the field once per tag (at most ${MAX_TAGS} tags of ${MAX_TAG_CHARS} characters each)`),
  if_exists: ifExistsSchema.default('fail'),
  search_setting: searchSettingSchema.optional(),
  change_summary: z.string().max(2000).optional().describe('Shown under the version when the upload revises an existing file'),
});

/** The documented multipart body: the fields, then the file part last. */
export const uploadBodySchema = uploadFieldsSchema
  .extend({ file: binarySchema('The file, the last part of the form; its file name becomes the resource\'s file name') })
  .describe(
    'multipart/form-data: every field first, then the file part `file` (a field after it is refused with 400). Text fields refuse ' +
      'control characters (descriptions and change summaries may hold tab and line breaks) and names refuse bidirectional controls: 400 `invalid`',
  );

export const replaceFieldsSchema = z.strictObject({
  change_summary: z.string().max(2000).optional().describe('Shown under the new version'),
});

export const replaceBodySchema = z
  .union([
    replaceFieldsSchema.extend({ file: binarySchema('The new content (the uploaded file name is ignored)') }),
    binarySchema('The new content as the raw request body'),
  ])
  .describe('Either the raw bytes as the request body (any content type but multipart/form-data), or multipart/form-data with an optional `change_summary` field before the file part `file`');

export const replaceQuerySchema = z.object({
  change_summary: z.string().max(2000).optional().describe('Shown under the new version (raw-body uploads; a form sends it as a field)'),
});

export const updateBodySchema = z
  .strictObject({
    display_name: z.string().min(1).max(500).optional(),
    description: z.string().optional(),
    tags: tagListSchema.optional().describe(`The full tag list (replaces the current one; at most ${MAX_TAGS} tags of ${MAX_TAG_CHARS} characters each)`),
    add_tags: tagListSchema
      .optional()
      .describe('Tags added to the current ones (kept where they are if already there); applied to the tags as they are when the edit runs, so a concurrent edit is not lost. Not with `tags`'),
    remove_tags: tagListSchema.optional().describe('Tags taken off the current ones (absent ones are ignored); applied like `add_tags`. Not with `tags`'),
    search_setting: searchSettingSchema.optional(),
    library: librarySchema.optional().describe('Move to this top-level folder (library); combined with `path` it is one move'),
    path: z.string().max(600).optional().describe('Move to this folder path inside the (new) library'),
  })
  .describe(
    'Edit details; any subset of the fields. A library and/or folder change moves the file: one URI rewrite, one alias, one audit event. ' +
      'Text fields refuse control characters (a description may hold tab and line breaks), display name and tags also bidirectional controls: 400 `invalid`',
  );

export const folderBodySchema = z.object({
  library: librarySchema.optional().describe('Library of the folder; when absent, `path` starts with the library: <library>/<folder path>'),
  path: z.string().max(600).describe('Folder path inside `library`, or <library>/<folder path> when `library` is absent'),
});

export const folderDescriptionSchema = folderBodySchema.extend({
  description: z.string().max(10_000).describe('Folder description (shown in search as the folder entry)'),
});

export const folderAnswerSchema = z.object({
  library: z.string().describe('Canonical library text'),
  path: z.string().describe('Folder path inside the library'),
  allowed_actions: folderActionsSchema,
});

export const moveTargetsQuerySchema = z.object({
  q: z.string().max(300).optional().describe('Only people whose subject contains this text (case-insensitive)'),
  cursor: z.string().max(2000).optional().describe('next_cursor of the previous page (pages the people)'),
  limit: z.coerce.number().int().min(1).max(MAX_PEOPLE_LIMIT).optional().describe(`People per page (1-${MAX_PEOPLE_LIMIT}, default 100)`),
});

export const moveTargetsSchema = z
  .object({
    libraries: z.array(z.string()).describe('Own library, personas and global the file may be moved into (the same on every page)'),
    people: z.array(z.string()).describe('person:<subject> of people the platform has seen, by subject (platform administrators only; else empty)'),
    next_cursor: z.string().nullable().describe('Cursor of the next page of people; null on the last'),
  })
  .describe('Where the caller may move the file (PATCH with `library` accepts exactly these)');

export const deleteQuerySchema = z.object({
  force: z.stringbool().optional().describe('true: delete even when assets or a registered table point at the file (prompts never hold a portal delete)'),
});

export const restoreParams = idParams.extend({ version: z.coerce.number().int().min(1).describe('The version whose bytes become the new head') });

// ---- top-level folders (GET /api/v1/resources/libraries, …/libraries/people) --------------------

const libraryFolderFields = {
  name: z.string().describe('What the file manager shows: My Resources, the persona\'s display name (else its name), Global; a person\'s email (else subject)'),
  library: z.string().describe('Library text: person:<subject>, persona:<name> or global'),
  path: z.string().describe('The library as `path` of the listing and facets routes take it (percent-encoded where needed)'),
  description: z.string().describe("The persona's description from the configuration; '' for the others"),
  count: z.number().int().describe('Files beneath, at every depth'),
  direct_count: z.number().int().describe("Files filed at the top level itself (the portal's \"N files at the top level\" row)"),
  last_changed_at: z.string().nullable().describe('Last file written into, removed from or moved out of anything beneath; null when nothing ever was'),
  allowed_actions: folderActionsSchema,
};

export const topLevelFolderSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('personal').describe('My Resources: the caller\'s own library'), ...libraryFolderFields }),
    z.object({ kind: z.literal('persona').describe('A persona\'s folder'), persona: z.string().describe('The persona\'s name'), ...libraryFolderFields }),
    z.object({ kind: z.literal('global').describe('Global'), ...libraryFolderFields }),
    z.object({
      kind: z.literal('people').describe('People (platform administrators): GET /api/v1/resources/libraries/people lists its folders when opened'),
      name: z.string(),
      people: z.number().int().describe('People whose personal library holds a file or a folder (the caller aside)'),
      count: z.number().int().describe('Files in their libraries, at every depth'),
      last_changed_at: z.string().nullable(),
    }),
  ])
  .describe('A top-level folder of the file manager');

export const topLevelFoldersSchema = z.object({
  folders: z.array(topLevelFolderSchema).describe('In the order the file manager shows them: My Resources, the personas, Global, then People for platform administrators'),
});

export const personFolderSchema = z
  .object({ kind: z.literal('person'), subject: z.string().describe("The owner's subject"), ...libraryFolderFields })
  .describe("A person's library under People");

export const peopleQuerySchema = z.object({
  q: z.string().max(300).optional().describe('Only people whose subject contains this text (case-insensitive)'),
  cursor: z.string().max(2000).optional().describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(MAX_PEOPLE_LIMIT).optional().describe(`People per page (1-${MAX_PEOPLE_LIMIT}, default 100)`),
});

export const peopleSchema = z.object({
  items: z.array(personFolderSchema).describe('By subject'),
  next_cursor: z.string().nullable().describe('Cursor of the next page; null on the last'),
});

// ---- Query as a table (GET/POST /api/v1/resources/{id}/tables) ------------------------------------

export const panelTableSchema = z
  .object({
    table: z.string().describe('The table name agents query (sql_query on `connection`)'),
    relation: z.string().describe('The fully qualified name'),
    connection: z.string(),
    version: z.number().int().nullable().describe('The version the table reads; null while its first correction runs'),
    head_version: z.number().int().describe("The file's current version"),
    status: z
      .enum(['current', 'older', 'correcting'])
      .describe('current: registered at the current version; older: at an older version (`version` says which; register again to move it); correcting: its first correction still runs'),
    follow: z.boolean().describe('Follows new versions written by exports and extractions'),
    pinned: z.boolean().describe('Stays at its version until registered again'),
    corrects: z.boolean().describe('Corrects the file: a later upload with the same problems is corrected as a new version above it'),
    correcting: z.boolean().describe('A correction runs in the registerTable workflow'),
    state: z.string().describe('Where it stands, in words'),
    registered_by: z.string(),
    registered_at: z.string(),
  })
  .describe('A table registered over the file');

export const tablePanelSchema = z
  .object({
    format: z.enum(['csv', 'tsv', 'ndjson']).nullable().describe('How the file reads as a table; null: not a CSV, TSV or NDJSON file'),
    tables: z.array(panelTableSchema).describe('Its registered tables, by connection and name; empty: none'),
    connections: z
      .array(z.object({ name: z.string(), display_name: z.string(), default: z.boolean().describe('Used when a registration names no connection') }))
      .describe('SQL connections with a scratch catalog, where a table can be registered (default first)'),
    default_table_name: z.string().nullable().describe('The name a registration without table_name gives this caller (the persona prefix added)'),
    register: z
      .object({ allowed: z.boolean(), reason: z.string().nullable().describe('Why not, when not allowed') })
      .describe('Whether POST would be accepted now: authority (allowed_actions.register), a table format and a connection'),
  })
  .describe('The "Query as a table" panel of a file');

export const registerTableBodySchema = z
  .strictObject({
    connection: z.string().min(1).max(200).optional().describe('The SQL connection (one of the panel\'s connections); absent: the default'),
    table_name: z.string().min(1).max(200).optional().describe('Default: a slug of the file name; the persona is always added as a prefix'),
    follow: z.boolean().optional().describe('Follow new versions written by exports and extractions (default true)'),
    correct: z
      .boolean()
      .optional()
      .describe('Save a corrected copy and register: when the file has line breaks in cells, carriage-return-only line ends or non-UTF-8 text, write a corrected version and register that (the table then corrects the file). Registering again without it turns correction off'),
  })
  .describe('Register the file as a table, as manage_table register does');

export const registeredTableSchema = z.object({
  table: panelTableSchema,
  change: z.string().describe('What registering did, in words'),
  corrected: z.object({ version: z.number().int(), reference: z.string() }).optional().describe('The corrected copy written and registered'),
  workflow_id: z.string().optional().describe('A large correction runs in this workflow (202); the table moves when it is done'),
});

export const tableRefusalSchema = errorSchema
  .extend({
    rows: z.number().int().describe('Rows with a line break inside a cell (NDJSON: records over several lines)'),
    columns: z.array(z.string()).describe('The columns those line breaks are in'),
    cr_only_lines: z.number().int().describe('Lines ending in a carriage return only'),
    invalid_utf8_bytes: z.number().int().describe('Bytes that are not UTF-8'),
  })
  .describe('refused: the file fails the checks; the message says how many rows and which columns, and that correct: true saves a corrected copy');

// ---- source editor (PUT /api/v1/resources/{id}/source) ----------------------------------------------

export const sourceQuerySchema = z.object({
  base_version: z.coerce.number().int().min(1).describe('The version the editor opened; a file with a newer head is refused (409)'),
});

export const sourceBodySchema = binarySchema(`The editor's text, UTF-8, at most ${INLINE_PREVIEW_BYTES} bytes; the file keeps its content type`);

export const sourceSavedSchema = replacedSchema.describe(`The resource with its new head version, whose change_summary is "${EDITED_IN_PORTAL}"`);

/** Error answers a route may give, keyed by status, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorSchema> {
  return Object.fromEntries([401, ...statuses].map((s) => [s, errorSchema]));
}

export const contentQuerySchema = z.object({
  purpose: z
    .enum(['download', 'preview'])
    .optional()
    .describe(
      'download (default): a person downloads the file — stamps last read, audited as portal_download. preview: the portal shows it ' +
        '(preview pane, source editor, Parquet viewer) — audited under portal_preview like an image tile, stamps no last read, and is not counted as a download in usage',
    ),
});
