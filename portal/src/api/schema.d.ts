// Generated from /api/openapi.json by test/integration/portal-api-types.test.ts (npm run portal:api-types). Do not edit.
export interface paths {
    "/api/v1/admin/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the caller administers the platform (200), as every admin route decides it
         * @description The portal shows its Administration pages to callers this answers 200; 401 without credentials, 403 for a caller outside admin.persona.
         */
        get: operations["getAdminAccess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail, newest first, filtered and paged
         * @description Rows of audit_log (docs/audit.md): tool calls, script changes and runs, endpoint requests, resource reads and moves. Filters combine (AND); limit 1–200 (default 50); cursor: next_cursor of the previous page. Parameters are redacted as when they were written, again on the way out.
         */
        get: operations["listAuditRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The filtered audit trail as CSV (newest first)
         * @description The rows GET /audit answers for the same filters, every page, at most 100000 (narrow the time range for more); columns occurred_at,subject,email,auth_type,persona,tool,outcome,duration_ms,error_text,session_id,resource_id,parameters,id. A text cell starting with =, +, -, @ is prefixed with ' so a spreadsheet does not run it.
         */
        get: operations["exportAuditRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The configured connections (SQL, object storage, catalog) and their health, probed now
         * @description Each connection is probed at once (listing catalogs, buckets, or a one-result search), at most 5 s each; credentials are never shown.
         */
        get: operations["listConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/personas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The personas: effective definitions, the tools they allow, and their members
         * @description Each definition with every default applied; tools.effective: the tools the platform serves that its members may call (the rule of tools/call); members: the roles mapping to it, the users role_mapping.user_personas assigns to it, and the API keys whose roles make them members.
         */
        get: operations["listPersonas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List stored secrets: names and grants, never values */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Create or replace a stored secret
         * @description The value is sealed at rest (AES-256-GCM under secrets.encryption_key) and never returned. Without value, a replace changes the grants and keeps the stored value. A platform connection reads the value only when allow_connections names it and personas is empty.
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a stored secret
         * @description Whatever names it (e.g. the bot-check settings' secret_name) can no longer read it: a hosted bot check then answers 503.
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/settings/bot-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the bot-check settings (settings section bot_check)
         * @description Every field, with its default when never written. secret_name is the stored secret's name; its value is never returned.
         */
        get: operations["getBotCheckSettings"];
        /**
         * Replace the bot-check settings
         * @description The whole section: omitted fields take their defaults. difficulty must not exceed max_difficulty; a hosted provider needs site_key and secret_name, and secret_name must name a stored secret whose allow_connections names bot_check and which lists no personas. Applies on every replica's next request.
         */
        put: operations["updateBotCheckSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Versions, and the state of the platform database and Temporal (probed now) */
        get: operations["getSystemInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook sources (never their secrets), with their figures when asked */
        get: operations["listWebhookSources"];
        put?: never;
        /**
         * Create a webhook source and its table
         * @description Checks the connection's scratch catalog first (422 with its reason when it cannot hold the table); a source whose table cannot be made is not kept (502).
         */
        post: operations["createWebhookSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook source (never its secret: auth.secret_set says whether one is stored) */
        get: operations["getWebhookSource"];
        /**
         * Replace the settings of a webhook source
         * @description Every setting is replaced (omitted ones take their defaults). name, connection and config.persona cannot change (400 when they differ). Without auth.secret the stored secret stays; a new one with rotation_overlap_seconds keeps the previous one valid until the overlap ends. A new compact_every_minutes applies to events received afterwards.
         */
        put: operations["updateWebhookSource"];
        post?: never;
        /**
         * Delete a webhook source: it is marked as being removed and its removal starts
         * @description Answers 202 with the source (state removing) once the mark is stored; again for a source already being removed. From then on the source receives nothing (its /hooks/ address answers 404), and the workflow webhook-remove:{name} stops its compactions and removes its windows (partition, resource, raw segments — each step recorded), its table and the source itself; its name is free again once that finished (a create until then: 409).
         */
        delete: operations["deleteWebhookSource"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources/{name}/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last 50 rejected requests of a webhook source (time, outcome, reason; never the body) */
        get: operations["listWebhookSourceRejections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources/{name}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The figures of a webhook source's page */
        get: operations["getWebhookSourceStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources/{name}/windows/{window}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compact a window again: a window owed a compaction (failing or not) stops waiting for its next try and its compaction starts at once
         * @description Starts webhook-compact:{name}:{window} now (a workflow of that id still running, failing and waiting for its next try, is told to try again now); the next sweep starts it if this start fails. 404 for an unknown source or window; 409 when the window is compacted and up to date, or being removed (by retention, or with its source).
         */
        post: operations["retryWebhookWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/sources/{name}/windows/retry-failing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compact every failing window of a source again, starting each at once; answers those it retried (none: an empty list) */
        post: operations["retryFailingWebhookWindows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/admin/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Captured insights for review, oldest first
         * @description Insights in one status (default pending), optionally about one entity and of one category; limit 1–100 (default 20).
         */
        get: operations["listInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/admin/insights/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve an insight (pending → approved)
         * @description Recorded with the reviewer and the notes (and an audit row, knowledge_change). Repeating it changes nothing; another state answers 409.
         */
        post: operations["approveInsight"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/admin/insights/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject an insight (pending or approved → rejected)
         * @description Recorded with the reviewer and the notes (and an audit row, knowledge_change). Repeating it changes nothing; another state answers 409.
         */
        post: operations["rejectInsight"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assets
         * @description scope `mine` (default): the caller's assets; `shared_with_me`: assets a live private share names the caller in (by subject or email); `all`: every asset (platform administrators only, else 403). `query`: words matched against name, description and tags. Newest first, paged by cursor.
         */
        get: operations["listAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an asset's details
         * @description Details, the resources the current version points at (as the caller may see them; deleted ones as missing) and its provenance. 404 unless the caller may read it.
         */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        /**
         * Delete
         * @description Deletes the asset, every version and every share (their links stop working). The owner and platform administrators.
         */
        delete: operations["deleteAsset"];
        options?: never;
        head?: never;
        /**
         * Edit details
         * @description Name, description, tags (the list replaces the current one). The owner and platform administrators.
         */
        patch: operations["updateAsset"];
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the content
         * @description The current version's bytes (or `version`'s), with the headers of user content: nosniff, `Content-Security-Policy: default-src 'none'; sandbox`, and Content-Disposition (inline only for PNG and plain text). Never rendered as a page of this origin.
         */
        get: operations["downloadAssetContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/frame": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sandboxed preview of an HTML or JSX asset
         * @description An HTML document for `<iframe sandbox="allow-scripts">`: the HTML asset itself, or a JSX asset compiled and rendered by the portal's JSX runtime. Its CSP sandboxes it onto an opaque origin and forbids every request (no fetch, no images but data:, no frames, no forms); only this origin may frame it. 400 for other types (the portal shows those itself).
         */
        get: operations["getAssetFrame"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List shares
         * @description Every share of the asset, newest first, with its state (active, expired, revoked); never the links. The owner and platform administrators.
         */
        get: operations["listAssetShares"];
        put?: never;
        /**
         * Create a share
         * @description A public link (no target) or a private share (`shared_with_user_id` and/or `shared_with_email`: only that person, signed in, opens it). The answer is the only place the link appears: the platform keeps only its SHA-256. The owner and platform administrators.
         */
        post: operations["createAssetShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/shares/{shareId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a share
         * @description The link stops working at once (it answers the same 404 as an unknown one). The owner and platform administrators.
         */
        delete: operations["revokeAssetShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Versions
         * @description The kept versions, newest first (each save is a version; the latest 20 are kept).
         */
        get: operations["listAssetVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/assets/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version
         * @description Saves the content of a kept version as the next version ("restored from version N"). The owner and platform administrators.
         */
        post: operations["restoreAssetVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List prompts
         * @description `filter` `mine` (default): the prompts the caller created; `visible`: every stored prompt the caller sees on MCP (own personal ones, their personas', shared), more specific scopes first.
         */
        get: operations["listPrompts"];
        put?: never;
        /**
         * Create a prompt
         * @description Name: lowercase letters, digits, hyphens and underscores (unique in its scope; operator and workflow prompts' names are taken). Scope personal: the caller's own; persona: needs persona-admin:<name>; shared: platform administrators. 201 with the prompt.
         */
        post: operations["createPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/prompts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a prompt
         * @description The prompt and its attachments as the caller may see them (deleted ones as missing). 404 unless the caller may open it.
         */
        get: operations["getPrompt"];
        put?: never;
        post?: never;
        /**
         * Delete a prompt
         * @description Deletes the prompt and its attachments (the resources stay). 204.
         */
        delete: operations["deletePrompt"];
        options?: never;
        head?: never;
        /**
         * Edit or move a prompt
         * @description Changes the fields sent. A scope change (scope, persona) needs authority to create prompts there and is refused (409 attachment_narrower, naming the resource) while an attachment is narrower than the new scope.
         */
        patch: operations["updatePrompt"];
        trace?: never;
    };
    "/api/v1/portal/prompts/{id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Reorder the attachments
         * @description The attachments in a new order: every attached resource id exactly once, first first.
         */
        put: operations["reorderPromptAttachments"];
        /**
         * Attach a resource
         * @description Attaches a resource the caller may open, at `position` (0 first; default last); attaching one already attached moves it. At most 20. Attachment rule: the resource must be at least as widely visible as the prompt (a private file only on its owner's personal prompts, a persona's file only on that persona's prompts, a Global file anywhere), else 409 attachment_narrower naming it.
         */
        post: operations["attachPromptResource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/prompts/{id}/attachments/{resourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detach a resource
         * @description Removes the attachment (also of a resource that was deleted); the rest keep their order.
         */
        delete: operations["detachPromptResource"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every script's name, kind, state and owner, by name */
        get: operations["listScripts"];
        put?: never;
        /**
         * Create a script or library (version 1); the caller owns it
         * @description Checks the name, the syntax (400 with line:column), the kind, and that every import names an active or deprecated library.
         */
        post: operations["createScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A script with its versions, and a version's source when the caller may read it */
        get: operations["getScript"];
        /**
         * Save a new version of the source
         * @description Pins every library the source reaches to its current version. No version is written when the source and those pins are unchanged (so re-saving an unchanged source upgrades its imports). Refused (409 bound) when the script is bound to an endpoint and the source no longer defines handle, and (409 in_use) when a library others import would stop being one. The owner and administrators only (403).
         */
        put: operations["updateScript"];
        post?: never;
        /**
         * Delete a script and its versions
         * @description Refused (409) while it is bound to an endpoint, supersedes other scripts, or (a library) is imported by another script.
         */
        delete: operations["deleteScript"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/deprecate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deprecate a script
         * @description Transitions: docs/scripts.md, "States". Asking for the current state changes nothing; another transition not allowed is 409 state.
         */
        post: operations["deprecateScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a script
         * @description Transitions: docs/scripts.md, "States". Asking for the current state changes nothing; another transition not allowed is 409 state.
         */
        post: operations["disableScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a script
         * @description Transitions: docs/scripts.md, "States". Asking for the current state changes nothing; another transition not allowed is 409 state.
         */
        post: operations["enableScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/endpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A script's endpoint binding and its recent failed requests (404 when unbound)
         * @description The owner and administrators only (403). Failed requests: the newest 50 of the seven days kept, newest first.
         */
        get: operations["getScriptEndpoint"];
        /**
         * Bind a script's handle(req) to /endpoints/{endpoint}, or replace its binding (administrators)
         * @description Fields left out take their defaults; the endpoint may be renamed; a disabled endpoint stays disabled. Platform administrators only (403, owners too); only a script whose current version defines handle(req), never a library (400); an endpoint name bound to another script is 409 name_taken naming it; a public endpoint is refused (400) while the bot check cannot protect it.
         */
        put: operations["putScriptEndpoint"];
        post?: never;
        /**
         * Unbind a script: its endpoint answers 404 and the name is free again (administrators)
         * @description Platform administrators only (403); 404 when the script is not bound. A bound script cannot be deleted until it is unbound. Answers the removed binding.
         */
        delete: operations["deleteScriptEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/endpoint/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn a script's endpoint off: its requests answer 404 (administrators)
         * @description Platform administrators only (403). Asking for the state the endpoint is in changes nothing.
         */
        post: operations["disableScriptEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/endpoint/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn a script's endpoint on (administrators)
         * @description Platform administrators only (403). Asking for the state the endpoint is in changes nothing.
         */
        post: operations["enableScriptEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draft-run a script's current version, as principal script:<name> with its author's roles
         * @description Runs main() in a fresh sandbox context (scripts.run_memory_bytes, scripts.run_deadline) and answers its result, error, console and duration; the run is recorded and audited (script_run). The answer is 200 whatever the run's status, except busy: 503 with Retry-After (no run slot of this replica was open to it, or the caller already had scripts.max_runs_per_caller runs under way; the run did not start). The owner and administrators only (403); a disabled, deprecated or superseded script does not run (409 state).
         */
        post: operations["runScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A script's runs, newest first (draft and scheduled): status, duration, error, console
         * @description The owner and administrators only (403). Paged: limit (default 50, at most 200) and before (next_cursor of the previous page).
         */
        get: operations["listScriptRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/runs/{runId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed scheduled run (administrators)
         * @description Starts runScript again as workflow script-run:{id}-retry-{runId}; the new run is recorded with retry_of naming the failed one. 409 state for a run that is not a failed scheduled run; 503 unavailable where this api has no Temporal client.
         */
        post: operations["retryScheduledScriptRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A script's schedule (404 when it has none) */
        get: operations["getScriptSchedule"];
        /**
         * Create or replace a script's schedule (cron or every, exactly one)
         * @description A library is not scheduled; a cron Temporal refuses is 400 invalid. The owner and administrators only (403).
         */
        put: operations["putScriptSchedule"];
        post?: never;
        /** Remove a script's schedule (removed false when it had none) */
        delete: operations["deleteScriptSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/schedule/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a script's schedule (kept, no runs until resumed) */
        post: operations["pauseScriptSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/schedule/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a script's paused schedule */
        post: operations["resumeScriptSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/{id}/supersede": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a script superseded by another (an active script of the same kind, not itself) */
        post: operations["supersedeScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/scripts/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draft-run an unsaved source, as the caller with the caller's roles
         * @description Runs main() in a fresh sandbox context (scripts.run_memory_bytes, scripts.run_deadline) and answers its result, error, console and duration; the run is recorded and audited (script_run). The answer is 200 whatever the run's status, except busy: 503 with Retry-After (no run slot of this replica was open to it, or the caller already had scripts.max_runs_per_caller runs under way; the run did not start).
         */
        post: operations["runInlineScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in caller
         * @description Who the caller is. For a browser session also its CSRF token (send it as X-CSRF-Token on every write) and when it ends. 401 when not signed in.
         */
        get: operations["getPortalSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The portal’s brand and how people sign in */
        get: operations["getPortalSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/view/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a share link shows
         * @description Public (a browser session, when present, is the signed-in person). A public share: the asset, the notice (the share's own, the built-in confidentiality notice, or none) and its expiry (null when hidden or none). A private share: `sign_in` for a signed-out visitor, the asset for the person it names (and its owner). Unknown, revoked and expired links, and a private share opened by anyone else, answer the same 404. Counts a view.
         */
        get: operations["viewSharedAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/portal/view/{token}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The shared asset's bytes
         * @description Under the same rule as the view; with the headers of user content (nosniff, a sandboxing CSP, attachment unless PNG or plain text). Does not count a view.
         */
        get: operations["downloadSharedAssetContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List files
         * @description Files of a folder (`path` = <library>/<folder path>), paged by `cursor`; `direct=true` lists one level only. Without a path, every library the caller may list (every library for a platform administrator). The root and a top-level folder with `direct=true` list no files. Callers see their own library, their personas and global; administrators also what they may write. Listing does not stamp last read.
         */
        get: operations["listResources"];
        put?: never;
        /**
         * Upload a file
         * @description Multipart upload of one file. Fields, each before the file part: `library` (default `personal`), `path`, `display_name`, `description`, `tags` (repeatable), `if_exists`, `search_setting`, `change_summary`; then the file part `file`, whose bytes stream into storage (hashed with SHA-256 on the way). 201 with outcome `created`; 200 with `revised` or `unchanged`; 409 when the address is taken and `if_exists` is `fail`; 413 over resources.managed.max_upload_bytes (nothing is stored); 415 for executables. Bulk and folder uploads call this once per file.
         */
        post: operations["uploadResource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a resource's details
         * @description The resource's metadata and thumbnail state (no content; does not stamp last read). 404 when unknown or not readable by the caller.
         */
        get: operations["getResource"];
        put?: never;
        post?: never;
        /**
         * Delete a resource
         * @description Deletes the file, every version and its stored bytes. Prompts that use it do not hold the delete: they keep serving and report the material as missing. While assets or a registered table point at it the delete is refused (409) with the counts of each; `force=true` deletes anyway (assets then report the file as missing, tables over it are dropped).
         */
        delete: operations["deleteResource"];
        options?: never;
        head?: never;
        /**
         * Edit details, move
         * @description Changes display name, description, tags and search setting, and moves the file: `library` (top-level folder) and/or `path` (folder). A move keeps id, versions and read history, rewrites the URI and keeps the old address as an alias; a move onto an existing file is refused (409) naming it. Uploader, administrators of the library, platform administrators.
         */
        patch: operations["updateResource"];
        trace?: never;
    };
    "/api/v1/resources/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the content
         * @description Streams the head version with Content-Type, Content-Length, ETag (the SHA-256) and the headers of user content: `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox` and Content-Disposition (the file name; `inline` only for images other than SVG, PDF and plain text, else `attachment`). One byte range is served (`Accept-Ranges: bytes`): `Range: bytes=a-b`, `a-` or `-n` answers 206 with Content-Range; several ranges, a malformed header, or an `If-Range` other than the current ETag answer the whole file; a range starting past the end is 416. Stamps last read and is audited as a portal download (each ranged read too); with `purpose=preview` (the portal showing the file in its preview pane, editor or Parquet viewer) it is audited under portal_preview and stamps nothing. If-None-Match with the current ETag answers 304 without reading the content; HEAD answers the same headers without reading it either.
         */
        get: operations["downloadResourceContent"];
        /**
         * Replace the content
         * @description Writes a new head version; id, file name (whatever the upload was called), URI and details stay. The body is the raw bytes (Content-Type is the new type; `change_summary` in the query) or multipart/form-data with an optional `change_summary` field before the file part `file`. 413 over resources.managed.max_upload_bytes (nothing stored), 415 for executables.
         */
        put: operations["replaceResourceContent"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/move-targets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Move targets
         * @description Where the caller may move the file with PATCH `library`: its own library, personas and global as the move rule offers them (the same as `allowed_actions.move_targets`), and for platform administrators `person:<subject>` of people the platform has seen (a personal library holding a file or folder, or an upload or write of a managed resource), filtered by `q` and paged by `cursor`. Agents and callers who may not change the file are offered nothing.
         */
        get: operations["listResourceMoveTargets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/source": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Save from the source editor
         * @description The source editor's Save: the body is the editor's text (UTF-8, at most 1048576 bytes; any Content-Type, e.g. text/plain) and becomes the next version; file name, type, id and URI stay. The server labels the version with the change summary "edited in the portal" (a client cannot set another; Replace content is PUT …/content). Allowed on a text-family file within the inline preview limit to whoever may change it (`allowed_actions.edit_source`): 403 without the change rule; 400 for a file outside the text family or text that is not UTF-8; 413 for a file or text over the limit; 409 when the file's head is not `base_version` (someone saved meanwhile; nothing stored).
         */
        put: operations["saveResourceSource"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Registered tables (Query as a table)
         * @description The tables registered over the file, each with the name agents query, the version it reads against the file's (`status`: current, older — `version` says which, register again to move it — or correcting), whether it corrects the file, follows new versions or is pinned; the SQL connections it could be registered on, the name a registration would give, and whether the caller may register it now (and if not, why). The by-id rule: 404 when the file is unknown or not readable by the caller.
         */
        get: operations["getResourceTables"];
        put?: never;
        /**
         * Register as a table
         * @description Registers the file (CSV, TSV or NDJSON) as a table in a SQL connection's scratch catalog, as manage_table register does: the persona is always the name's prefix; the uploader, an administrator of the file's library (persona-admin of its persona) or a platform administrator may (403 otherwise). The file is checked first: a line break inside a cell, lines ending in a carriage return only or non-UTF-8 text refuse it (422 `refused`, saying how many rows and which columns) unless `correct` is true ("Save a corrected copy and register": a corrected version is written with a change summary and registered, the table then corrects the file). 200 registered (again: moved to the current version); 202 when a large correction runs in a workflow (`workflow_id`). 400 for a file that is no table or a connection without a scratch catalog; 409 when another file holds the name (naming it when the caller may open it) or the file changed during a correction; 503 when no connection can hold tables.
         */
        post: operations["registerResourceTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The thumbnail image
         * @description The 800x600 PNG tile of the resource: `variant` light or dark for documents, image for SVG, PDF and raster images (a light or dark request of a one-image tile answers the image). While stale, the old tile. 404 when none is stored (state none, drawing, failed without an old tile, or icon). Audited under the portal_preview surface; does not stamp last read.
         */
        get: operations["getResourceThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/thumbnail/recapture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recapture or Try again
         * @description Discards both variants and draws the head version again (202; the state is drawing until it lands). Allowed to whoever may change the file and anyone who may add to its library (403 otherwise); 409 while a draw is under way; 400 for a file that keeps a content-type icon.
         */
        post: operations["recaptureResourceThumbnail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage
         * @description Content reads over the last 30 and 90 days by door (agent resources/read, search fetch, portal download, portal_preview image tiles), the last read and the never-read flag, counted from the audit trail and so bounded by audit.retention_days. With audit.enabled false: `{recorded: false, message}`, not zeros.
         */
        get: operations["getResourceUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/used-by": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Used by
         * @description How many assets, prompts and registered tables point at the file; the referencing assets the caller may open by name (with whether each carries a public share link), the others counted only (`assets_not_shown`), and whether any carries a public link.
         */
        get: operations["listResourceDependents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Version history
         * @description Every kept version, newest first, each with its content_sha256 and change_summary (at most resources.managed.max_versions).
         */
        get: operations["listResourceVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a version
         * @description Writes a new head version with the exact bytes of version `version`, labelled with where it came from; history stays append-only.
         */
        post: operations["restoreResourceVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/{id}/writers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Written by
         * @description Persons, agent sessions and managed scripts that created or modified the file, most recent first; each marked created or only modified.
         */
        get: operations["listResourceWriters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/facets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Folder counts
         * @description Every folder the caller may list under `path`, `depth` levels deep (default: all): exact file counts (beneath and direct), when a file beneath was last written, removed or moved out, and its description.
         */
        get: operations["getResourceFacets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an empty folder
         * @description Creates the folder and each missing ancestor. Body `{library, path}`, or `{path: "<library>/<folder path>"}`. Needs the authority to upload to that top-level folder. 400 names the folder rule broken. Creating an existing folder succeeds.
         */
        post: operations["createFolder"];
        /**
         * Delete an empty folder
         * @description Removes a folder only when nothing is filed in it or beneath it (409 otherwise). The folder is named by the query `library` and `path` or by a JSON body of the same shape (the body wins); either form also takes path as <library>/<folder path>.
         */
        delete: operations["deleteFolder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/folders/description": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Describe a folder
         * @description Sets a folder's description. Body `{library, path, description}`; without `library`, path is <library>/<folder path> (for example `persona:sales/templates`). Needs the authority to add files there.
         */
        put: operations["setFolderDescription"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/folders/rename": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rename or move a folder
         * @description Renames a folder, or nests it under another folder of the same library, with every file and folder beneath it at every depth, in one transaction; each file keeps its id and reference and its old address stays an alias. Body `{library, path, new_path}` (or path as <library>/<folder path>). Answers the moved files. Refused with nothing moved: 400 when new_path is inside the folder or a path would break the folder rule; 403 when the caller may not add to the library or change a file beneath (naming it); 404 for an unknown folder; 409 when a destination address is taken (naming it) or more than 500 files are beneath (stating how many), or another rename of the folder is under way; 503 when this api has no Temporal client. Asking again with the same request answers the same result.
         */
        post: operations["renameFolder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/libraries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Top-level folders
         * @description The root of the file manager, in the order it shows it: My Resources (`kind` personal, the caller's own library), one folder per persona the caller belongs to or administers (`persona`; every persona for a platform administrator, with or without files; named by the persona's display_name), Global, and for a platform administrator People (`people`), whose folders GET /api/v1/resources/libraries/people lists when it is opened. Each library carries exact counts (`count` beneath, `direct_count` at its top level), when anything beneath last changed, and the caller's folder actions; open one with the listing and facets routes by its `path`.
         */
        get: operations["listTopLevelFolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/libraries/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Folders under People
         * @description One folder per person whose resources exist (a file or a folder in their personal library), the caller aside, by subject: each with its counts, last change and folder actions, named by the email their writes recorded (else the subject). Filtered by `q`, paged by `cursor`. Platform administrators only (403 otherwise).
         */
        get: operations["listPeopleFolders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search resources
         * @description Files (and folder entries) matching `q` by name, tags, description, folder and contents, best first; membership-scoped for everyone, administrators included (own library, member personas, global). Paged by `offset`; `next_offset` is null on the last page.
         */
        get: operations["searchResources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/botcheck/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Issue a bot-check challenge for a public endpoint
         * @description Counted in a bucket of the endpoint and the caller's network (its IPv4 address, or IPv6 /64), the size of the endpoint's rate_limit (a minute's worth at once, refilled over the minute), on each replica (429 with Retry-After past it). 404 for a name that is not an enabled public endpoint; 503 when no challenge can be issued (no auth.browser_session.signing_key for proof of work). Cross-origin requests are answered for the endpoint's allowed_origins.
         */
        get: operations["issueBotCheckChallenge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/botcheck/solver.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The browser script exposing PlatformBotCheck.answer(endpoint_name, {container}) and PlatformBotCheck.header */
        get: operations["getBotCheckSolver"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Liveness: the process answers
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/{source}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send events to a webhook source
         * @description Send events to a webhook source (hmac, header_token or basic authentication)
         */
        post: operations["sendWebhookEvents"];
        delete?: never;
        /**
         * CloudEvents webhook handshake
         * @description CloudEvents webhook handshake: 200 with WebHook-Allowed-Origin (and WebHook-Allowed-Rate) for cloudevents sources, 405 for others
         */
        options: operations["handshakeWebhookSource"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/{source}/{secret}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send events to a path_token webhook source
         * @description Send events to a path_token source
         */
        post: operations["sendWebhookEventsWithPathToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open the MCP server-to-client event stream
         * @description Opens the session's standalone SSE stream for server-initiated messages (one per session), or resumes a stream with `Last-Event-ID`. The `Accept` header must list `text/event-stream`.
         */
        get: operations["openMcpStream"];
        put?: never;
        /**
         * Send MCP JSON-RPC messages
         * @description Sends one JSON-RPC message or a batch. The `Accept` header must list both `application/json` and `text/event-stream`. Requests are answered with JSON or with an SSE stream that ends after the last response; notifications and responses alone get 202. The answer to `initialize` carries the `Mcp-Session-Id` header of a new session (stateful mode).
         */
        post: operations["postMcpMessage"];
        /**
         * End an MCP session
         * @description Ends the session named by `Mcp-Session-Id`; the id is unknown (404) afterwards.
         */
        delete: operations["endMcpSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/objstore/{connection}/{bucket}/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an object through a presigned URL
         * @description One object of a filesystem object-store connection through a presigned URL made by objstore_presign_url. 403 when the URL is tampered with, expired or used with another method.
         */
        get: operations["downloadPresignedObject"];
        /**
         * Upload an object through a presigned URL
         * @description One object of a filesystem object-store connection through a presigned URL made by objstore_presign_url. 403 when the URL is tampered with, expired or used with another method.
         */
        put: operations["uploadPresignedObject"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/auth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finish browser sign-in
         * @description The identity provider’s redirect back. The `state` must be the one this browser’s login-state cookie holds; the code is exchanged and the ID token validated; then the session cookie is set and the browser sent (302) to its return path. 400 for a missing or foreign state or a sign-in the provider refused; 502 when the code exchange fails.
         */
        get: operations["finishSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start browser sign-in
         * @description Redirects (302) to the identity provider (auth.oidc) with the authorization code flow and PKCE S256; a short-lived login-state cookie binds the callback to this browser. `return_to`: a path on this site to land on once signed in (default /portal/).
         */
        get: operations["startSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign out
         * @description Clears the session cookie and redirects (302) to the identity provider’s end_session_endpoint, or to / when it has none.
         */
        get: operations["signOut"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Readiness: dependencies reachable and not draining
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAdminAccess: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        admin_persona: string;
                        /** @enum {boolean} */
                        administrator: true;
                        path_prefix: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listAuditRecords: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description From this time, inclusive */
                from?: string;
                limit?: number;
                outcome?: "ok" | "error" | "denied";
                /** @description Up to this time, exclusive */
                to?: string;
                /** @description A tool or event name (manage_script, endpoint:orders, script_run, portal_download, …); a trailing * matches names starting with the rest */
                tool?: string;
                /** @description Rows whose subject or email contains this text (case-insensitive) */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            auth_type: string;
                            duration_ms: number;
                            email: string | null;
                            error_text: string | null;
                            id: string;
                            occurred_at: string;
                            /** @description ok, error or denied */
                            outcome: string;
                            /** @description The arguments, secrets redacted ("[redacted]") and content arguments as {size, sha256} */
                            parameters: unknown;
                            persona: string | null;
                            resource_id: string | null;
                            session_id: string | null;
                            /** @description apikey:<name>, oidc:<issuer>#<sub>, script:<name>, local:operator, anonymous:anonymous */
                            subject: string;
                            /** @description The tool called, or the event: script_change, script_run, endpoint:<name>, portal_download, … */
                            tool: string;
                        }[];
                        next_cursor: string | null;
                        settings: {
                            /** @description audit.enabled */
                            enabled: boolean;
                            /** @description audit.log_tool_calls: tool calls are recorded only when both are on */
                            log_tool_calls: boolean;
                            retention_days: number;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    exportAuditRecords: {
        parameters: {
            query?: {
                /** @description From this time, inclusive */
                from?: string;
                outcome?: "ok" | "error" | "denied";
                /** @description Up to this time, exclusive */
                to?: string;
                /** @description A tool or event name (manage_script, endpoint:orders, script_run, portal_download, …); a trailing * matches names starting with the rest */
                tool?: string;
                /** @description Rows whose subject or email contains this text (case-insensitive) */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/csv; charset=utf-8, as an attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: {
                            display_name: string;
                            /** @description trino or duckdb; s3 or filesystem; the catalog service */
                            engine: string;
                            /** @description A probe made for this request */
                            health: {
                                /** @description Why the probe failed (the driver's message, cut to 300 characters) */
                                error: string | null;
                                /** @description How long the probe took; null when it was not made */
                                latency_ms: number | null;
                                ok: boolean;
                            };
                            /** @description Used by the platform only (its storage); the tools cannot name it */
                            internal: boolean;
                            is_default: boolean;
                            /** @enum {string} */
                            kind: "sql" | "objstore" | "catalog";
                            /** @description The instance key: what tools' connection argument names */
                            name: string;
                            read_only: boolean;
                            /** @description Where it points: host:port, endpoint or region, directory, URL (never credentials) */
                            target: string | null;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listPersonas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The personas, with every default applied */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        admin_persona: string;
                        /** @description Whether default_persona is defined; if not, callers matching no persona are refused */
                        default_defined: boolean;
                        default_persona: string;
                        personas: {
                            /** @description admin.persona: its members are platform administrators */
                            administrators: boolean;
                            description: string | null;
                            display_name: string | null;
                            hints: {
                                [key: string]: string;
                            };
                            is_default: boolean;
                            members: {
                                api_keys: {
                                    /** @description Its active persona (whose tool rules apply) */
                                    active: boolean;
                                    name: string;
                                    roles: string[];
                                }[];
                                roles: {
                                    role: string;
                                    /** @enum {string} */
                                    via: "persona_roles" | "role_mapping";
                                }[];
                                /** @description role_mapping.user_personas entries naming it */
                                users: string[];
                            };
                            name: string;
                            priority: number;
                            prompts: {
                                instructions: string | null;
                                system_prefix: string | null;
                                system_suffix: string | null;
                            };
                            tools: {
                                allow: string[];
                                deny: string[];
                                /** @description The tools the platform serves that its members may call */
                                effective: string[];
                            };
                        }[];
                        role_mapping: {
                            oidc_to_persona: {
                                [key: string]: string;
                            };
                            user_personas: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: {
                            allow_connections: string[];
                            created_at: string;
                            created_by: string;
                            name: string;
                            personas: string[];
                            updated_at: string;
                            updated_by: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Secret name: lowercase letters, digits, ".", "_" and "-", starting with a letter or digit; at most 128 */
                name: string;
            };
            cookie?: never;
        };
        /** @description A stored secret: create or replace */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Platform connections that may read the value on the server (e.g. bot_check)
                     * @default []
                     */
                    allow_connections?: string[];
                    /**
                     * @description Personas the secret is for; a secret listing any is never read by a platform connection
                     * @default []
                     */
                    personas?: string[];
                    /** @description The secret (write-only: never returned). Required to create; omitted on a replace, the stored value stays. At most 16384 bytes */
                    value?: string;
                };
            };
        };
        responses: {
            /** @description A stored secret: its name and grants, never its value */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allow_connections: string[];
                        created_at: string;
                        created_by: string;
                        name: string;
                        personas: string[];
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description A stored secret: its name and grants, never its value */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allow_connections: string[];
                        created_at: string;
                        created_by: string;
                        name: string;
                        personas: string[];
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Secret name: lowercase letters, digits, ".", "_" and "-", starting with a letter or digit; at most 128 */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, not_found, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field; never a value */
                        message: string;
                    };
                };
            };
        };
    };
    getBotCheckSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bot-check settings (settings section bot_check) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description With provider none, public endpoints are refused (503) and cannot be bound until this is set
                         * @default false
                         */
                        allow_public_without_check: boolean;
                        /**
                         * @description How long a challenge may be answered (30 to 3600)
                         * @default 300
                         */
                        challenge_ttl_seconds: number;
                        /**
                         * @description Leading zero bits required of the answer's SHA-256 (1 to 28)
                         * @default 16
                         */
                        difficulty: number;
                        /**
                         * @description Ceiling of the difficulty (1 to 28)
                         * @default 22
                         */
                        max_difficulty: number;
                        /**
                         * @description pow: our own proof of work; hosted_a: Cloudflare Turnstile; hosted_b: hCaptcha (verified server-side); none: no check
                         * @default pow
                         * @enum {string}
                         */
                        provider: "pow" | "hosted_a" | "hosted_b" | "none";
                        /**
                         * @description Answers accepted for the endpoint in the last minute past which difficulty rises: one bit per doubling
                         * @default 30
                         */
                        rate_threshold: number;
                        /**
                         * @description Name of the stored secret holding the hosted provider's secret key; it must allow connection bot_check and list no personas. The value is never returned
                         * @default null
                         */
                        secret_name: string | null;
                        /**
                         * @description The hosted provider's site key, for its widget (hosted providers)
                         * @default null
                         */
                        site_key: string | null;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field */
                        message: string;
                    };
                };
            };
        };
    };
    updateBotCheckSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Bot-check settings (settings section bot_check) */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description With provider none, public endpoints are refused (503) and cannot be bound until this is set
                     * @default false
                     */
                    allow_public_without_check?: boolean;
                    /**
                     * @description How long a challenge may be answered (30 to 3600)
                     * @default 300
                     */
                    challenge_ttl_seconds?: number;
                    /**
                     * @description Leading zero bits required of the answer's SHA-256 (1 to 28)
                     * @default 16
                     */
                    difficulty?: number;
                    /**
                     * @description Ceiling of the difficulty (1 to 28)
                     * @default 22
                     */
                    max_difficulty?: number;
                    /**
                     * @description pow: our own proof of work; hosted_a: Cloudflare Turnstile; hosted_b: hCaptcha (verified server-side); none: no check
                     * @default pow
                     * @enum {string}
                     */
                    provider?: "pow" | "hosted_a" | "hosted_b" | "none";
                    /**
                     * @description Answers accepted for the endpoint in the last minute past which difficulty rises: one bit per doubling
                     * @default 30
                     */
                    rate_threshold?: number;
                    /**
                     * @description Name of the stored secret holding the hosted provider's secret key; it must allow connection bot_check and list no personas. The value is never returned
                     * @default null
                     */
                    secret_name?: string | null;
                    /**
                     * @description The hosted provider's site key, for its widget (hosted providers)
                     * @default null
                     */
                    site_key?: string | null;
                };
            };
        };
        responses: {
            /** @description Bot-check settings (settings section bot_check) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description With provider none, public endpoints are refused (503) and cannot be bound until this is set
                         * @default false
                         */
                        allow_public_without_check: boolean;
                        /**
                         * @description How long a challenge may be answered (30 to 3600)
                         * @default 300
                         */
                        challenge_ttl_seconds: number;
                        /**
                         * @description Leading zero bits required of the answer's SHA-256 (1 to 28)
                         * @default 16
                         */
                        difficulty: number;
                        /**
                         * @description Ceiling of the difficulty (1 to 28)
                         * @default 22
                         */
                        max_difficulty: number;
                        /**
                         * @description pow: our own proof of work; hosted_a: Cloudflare Turnstile; hosted_b: hCaptcha (verified server-side); none: no check
                         * @default pow
                         * @enum {string}
                         */
                        provider: "pow" | "hosted_a" | "hosted_b" | "none";
                        /**
                         * @description Answers accepted for the endpoint in the last minute past which difficulty rises: one bit per doubling
                         * @default 30
                         */
                        rate_threshold: number;
                        /**
                         * @description Name of the stored secret holding the hosted provider's secret key; it must allow connection bot_check and list no personas. The value is never returned
                         * @default null
                         */
                        secret_name: string | null;
                        /**
                         * @description The hosted provider's site key, for its widget (hosted providers)
                         * @default null
                         */
                        site_key: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, invalid_request, unauthorized, forbidden */
                        error: string;
                        /** @description What went wrong, naming the field */
                        message: string;
                    };
                };
            };
        };
    };
    getSystemInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What runs and how it is */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        admin: {
                            path_prefix: string;
                            persona: string;
                        };
                        audit: {
                            enabled: boolean;
                            log_tool_calls: boolean;
                            /** @description Rows are written: audit.enabled with a database */
                            recording: boolean;
                            retention_days: number;
                        };
                        database: {
                            configured: boolean;
                            /** @description A probe made for this request */
                            health: {
                                /** @description Why the probe failed (the driver's message, cut to 300 characters) */
                                error: string | null;
                                /** @description How long the probe took; null when it was not made */
                                latency_ms: number | null;
                                ok: boolean;
                            };
                            /** @description The newest migration applied */
                            migration: {
                                name: string;
                                version: number;
                            } | null;
                            /** @description The server's version string */
                            version: string | null;
                        };
                        platform: {
                            node: string;
                            started_at: string;
                            uptime_seconds: number;
                            /** @description The platform build (package version) */
                            version: string;
                        };
                        portal: {
                            enabled: boolean;
                            public_base_url: string;
                        };
                        server: {
                            description: string | null;
                            name: string;
                            /** @description server.version */
                            version: string;
                        };
                        temporal: {
                            address: string | null;
                            configured: boolean;
                            /** @description A probe made for this request */
                            health: {
                                /** @description Why the probe failed (the driver's message, cut to 300 characters) */
                                error: string | null;
                                /** @description How long the probe took; null when it was not made */
                                latency_ms: number | null;
                                ok: boolean;
                            };
                            namespace: string;
                            task_queue: string;
                            /** @description temporal.ui_url: where the portal links workflows */
                            ui_url: string | null;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, unavailable, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listWebhookSources: {
        parameters: {
            query?: {
                /** @description true: each source with its figures (requests and events of the last hour and day, last event, windows owed, last failure), as its page shows them */
                figures?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sources: {
                            auth: {
                                /**
                                 * @default sha256
                                 * @enum {string}
                                 */
                                algorithm: "sha256" | "sha1";
                                /**
                                 * @default hex
                                 * @enum {string}
                                 */
                                encoding: "hex" | "base64";
                                /** @enum {string} */
                                mode: "hmac";
                                /** @description Text before the signature in its header, e.g. `sha256=` */
                                prefix?: string;
                                /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                                previous_secret_until?: string;
                                /** @description Whether a secret is stored (the secret itself is never returned) */
                                secret_set: boolean;
                                /** @description Header carrying the signature */
                                signature_header: string;
                                /**
                                 * @description `timestamp.body` signs the timestamp, a dot, and the body
                                 * @default body
                                 * @enum {string}
                                 */
                                signed: "body" | "timestamp.body";
                                /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                                timestamp_header?: string;
                                /**
                                 * @description Largest distance of that timestamp from the platform clock
                                 * @default 300
                                 */
                                tolerance_seconds: number;
                            } | {
                                /** @description Header carrying the secret */
                                header: string;
                                /** @enum {string} */
                                mode: "header_token";
                                /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                                previous_secret_until?: string;
                                /** @description Whether a secret is stored (the secret itself is never returned) */
                                secret_set: boolean;
                            } | {
                                /** @enum {string} */
                                mode: "basic";
                                /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                                previous_secret_until?: string;
                                /** @description Whether a secret is stored (the secret itself is never returned) */
                                secret_set: boolean;
                                username: string;
                            } | {
                                /** @enum {string} */
                                mode: "path_token";
                                /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                                previous_secret_until?: string;
                                /** @description Whether a secret is stored (the secret itself is never returned) */
                                secret_set: boolean;
                            };
                            config: {
                                /**
                                 * @description Events one replica holds in memory for this source before answering 503
                                 * @default 50000
                                 */
                                buffer_limit: number;
                                /**
                                 * @description Window length in minutes; changes apply to events received afterwards
                                 * @default 60
                                 * @enum {number}
                                 */
                                compact_every_minutes: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                                /**
                                 * @description 0 keeps compacted windows forever
                                 * @default 400
                                 */
                                compacted_retention_days: number;
                                /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                                event_id_path?: string;
                                /** @description JSON path to the event type (column event_type) */
                                event_type_path?: string;
                                /** @default 8388608 */
                                flush_max_bytes: number;
                                /** @default 5000 */
                                flush_max_events: number;
                                /** @default 1000 */
                                flush_max_interval_ms: number;
                                /**
                                 * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                                 * @default none
                                 * @enum {string}
                                 */
                                handshake: "none" | "cloudevents";
                                /** @description JSON path to the entity the event concerns (column key) */
                                key_path?: string;
                                /**
                                 * @description Larger bodies get 413 and are not stored
                                 * @default 1048576
                                 */
                                max_body_bytes: number;
                                persona: string;
                                /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                                rate_limit_burst?: number;
                                /** @description Requests per minute to this source (not per client) */
                                rate_limit_per_minute?: number;
                                /** @default 7 */
                                raw_retention_days: number;
                                /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                                split?: string;
                            };
                            connection: string;
                            created_at: string;
                            /** @description Subject of the administrator who created it */
                            created_by: string;
                            enabled: boolean;
                            /** @description With figures=true only */
                            figures?: {
                                /** @description Events acknowledged (a request may carry many, with split) over every replica, counted per minute */
                                events: {
                                    last_day: number;
                                    last_hour: number;
                                };
                                last_event_at: string | null;
                                last_failure: {
                                    attempts: number;
                                    /** @description UTC, ISO 8601 */
                                    failed_at: string;
                                    next_try_at: string | null;
                                    reason: string;
                                    /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                                    window: string;
                                } | null;
                                requests: {
                                    last_day: {
                                        accepted: number;
                                        buffer_full: number;
                                        invalid_body: number;
                                        rate_limited: number;
                                        too_large: number;
                                        unauthorized: number;
                                        unknown_source: number;
                                        write_failed: number;
                                    };
                                    last_hour: {
                                        accepted: number;
                                        buffer_full: number;
                                        invalid_body: number;
                                        rate_limited: number;
                                        too_large: number;
                                        unauthorized: number;
                                        unknown_source: number;
                                        write_failed: number;
                                    };
                                };
                                /** @description Where senders POST, as on its page (never the secret) */
                                sender_url: string;
                                /** @description Ended windows owed a compaction, failing ones included */
                                windows_owed: number;
                            };
                            /** @description UUIDv7 */
                            id: string;
                            name: string;
                            /** @description Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret}) */
                            path: string;
                            /** @description When the source was deleted (only while removing) */
                            removing_since?: string;
                            /**
                             * @description removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)
                             * @enum {string}
                             */
                            state: "enabled" | "disabled" | "removing";
                            /** @description The view webhook_{name} in the connection's scratch schema */
                            table: string;
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    createWebhookSource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How senders authenticate (auth.mode: hmac, header_token, basic, path_token) */
                    auth: {
                        /**
                         * @default sha256
                         * @enum {string}
                         */
                        algorithm?: "sha256" | "sha1";
                        /**
                         * @default hex
                         * @enum {string}
                         */
                        encoding?: "hex" | "base64";
                        /** @enum {string} */
                        mode: "hmac";
                        /** @description Text before the signature in its header, e.g. `sha256=` */
                        prefix?: string;
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                        /** @description Header carrying the signature */
                        signature_header: string;
                        /**
                         * @description `timestamp.body` signs the timestamp, a dot, and the body
                         * @default body
                         * @enum {string}
                         */
                        signed?: "body" | "timestamp.body";
                        /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                        timestamp_header?: string;
                        /**
                         * @description Largest distance of that timestamp from the platform clock
                         * @default 300
                         */
                        tolerance_seconds?: number;
                    } | {
                        /** @description Header carrying the secret */
                        header: string;
                        /** @enum {string} */
                        mode: "header_token";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                    } | {
                        /** @enum {string} */
                        mode: "basic";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                        username: string;
                    } | {
                        /** @enum {string} */
                        mode: "path_token";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                    };
                    /** @default {} */
                    config?: {
                        /**
                         * @description Events one replica holds in memory for this source before answering 503
                         * @default 50000
                         */
                        buffer_limit?: number;
                        /**
                         * @description Window length in minutes; changes apply to events received afterwards
                         * @default 60
                         * @enum {number}
                         */
                        compact_every_minutes?: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                        /**
                         * @description 0 keeps compacted windows forever
                         * @default 400
                         */
                        compacted_retention_days?: number;
                        /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                        event_id_path?: string;
                        /** @description JSON path to the event type (column event_type) */
                        event_type_path?: string;
                        /** @default 8388608 */
                        flush_max_bytes?: number;
                        /** @default 5000 */
                        flush_max_events?: number;
                        /** @default 1000 */
                        flush_max_interval_ms?: number;
                        /**
                         * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                         * @default none
                         * @enum {string}
                         */
                        handshake?: "none" | "cloudevents";
                        /** @description JSON path to the entity the event concerns (column key) */
                        key_path?: string;
                        /**
                         * @description Larger bodies get 413 and are not stored
                         * @default 1048576
                         */
                        max_body_bytes?: number;
                        /** @description Persona whose members see the compacted files in Resources and search; unset: admin.persona. Fixed at creation */
                        persona?: string;
                        /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                        rate_limit_burst?: number;
                        /** @description Requests per minute to this source (not per client) */
                        rate_limit_per_minute?: number;
                        /** @default 7 */
                        raw_retention_days?: number;
                        /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                        split?: string;
                    };
                    /** @description toolkits.sql connection whose scratch catalog holds the table. Cannot change */
                    connection: string;
                    /**
                     * @description A disabled source answers 404, like an unknown name
                     * @default true
                     */
                    enabled?: boolean;
                    /** @description Path segment of /hooks/{name}; the table is webhook_{name} with each - as _. Cannot change */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: {
                            /**
                             * @default sha256
                             * @enum {string}
                             */
                            algorithm: "sha256" | "sha1";
                            /**
                             * @default hex
                             * @enum {string}
                             */
                            encoding: "hex" | "base64";
                            /** @enum {string} */
                            mode: "hmac";
                            /** @description Text before the signature in its header, e.g. `sha256=` */
                            prefix?: string;
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            /** @description Header carrying the signature */
                            signature_header: string;
                            /**
                             * @description `timestamp.body` signs the timestamp, a dot, and the body
                             * @default body
                             * @enum {string}
                             */
                            signed: "body" | "timestamp.body";
                            /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                            timestamp_header?: string;
                            /**
                             * @description Largest distance of that timestamp from the platform clock
                             * @default 300
                             */
                            tolerance_seconds: number;
                        } | {
                            /** @description Header carrying the secret */
                            header: string;
                            /** @enum {string} */
                            mode: "header_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        } | {
                            /** @enum {string} */
                            mode: "basic";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            username: string;
                        } | {
                            /** @enum {string} */
                            mode: "path_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        };
                        config: {
                            /**
                             * @description Events one replica holds in memory for this source before answering 503
                             * @default 50000
                             */
                            buffer_limit: number;
                            /**
                             * @description Window length in minutes; changes apply to events received afterwards
                             * @default 60
                             * @enum {number}
                             */
                            compact_every_minutes: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                            /**
                             * @description 0 keeps compacted windows forever
                             * @default 400
                             */
                            compacted_retention_days: number;
                            /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                            event_id_path?: string;
                            /** @description JSON path to the event type (column event_type) */
                            event_type_path?: string;
                            /** @default 8388608 */
                            flush_max_bytes: number;
                            /** @default 5000 */
                            flush_max_events: number;
                            /** @default 1000 */
                            flush_max_interval_ms: number;
                            /**
                             * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                             * @default none
                             * @enum {string}
                             */
                            handshake: "none" | "cloudevents";
                            /** @description JSON path to the entity the event concerns (column key) */
                            key_path?: string;
                            /**
                             * @description Larger bodies get 413 and are not stored
                             * @default 1048576
                             */
                            max_body_bytes: number;
                            persona: string;
                            /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                            rate_limit_burst?: number;
                            /** @description Requests per minute to this source (not per client) */
                            rate_limit_per_minute?: number;
                            /** @default 7 */
                            raw_retention_days: number;
                            /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                            split?: string;
                        };
                        connection: string;
                        created_at: string;
                        /** @description Subject of the administrator who created it */
                        created_by: string;
                        enabled: boolean;
                        /** @description UUIDv7 */
                        id: string;
                        name: string;
                        /** @description Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret}) */
                        path: string;
                        /** @description When the source was deleted (only while removing) */
                        removing_since?: string;
                        /**
                         * @description removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)
                         * @enum {string}
                         */
                        state: "enabled" | "disabled" | "removing";
                        /** @description The view webhook_{name} in the connection's scratch schema */
                        table: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    getWebhookSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: {
                            /**
                             * @default sha256
                             * @enum {string}
                             */
                            algorithm: "sha256" | "sha1";
                            /**
                             * @default hex
                             * @enum {string}
                             */
                            encoding: "hex" | "base64";
                            /** @enum {string} */
                            mode: "hmac";
                            /** @description Text before the signature in its header, e.g. `sha256=` */
                            prefix?: string;
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            /** @description Header carrying the signature */
                            signature_header: string;
                            /**
                             * @description `timestamp.body` signs the timestamp, a dot, and the body
                             * @default body
                             * @enum {string}
                             */
                            signed: "body" | "timestamp.body";
                            /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                            timestamp_header?: string;
                            /**
                             * @description Largest distance of that timestamp from the platform clock
                             * @default 300
                             */
                            tolerance_seconds: number;
                        } | {
                            /** @description Header carrying the secret */
                            header: string;
                            /** @enum {string} */
                            mode: "header_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        } | {
                            /** @enum {string} */
                            mode: "basic";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            username: string;
                        } | {
                            /** @enum {string} */
                            mode: "path_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        };
                        config: {
                            /**
                             * @description Events one replica holds in memory for this source before answering 503
                             * @default 50000
                             */
                            buffer_limit: number;
                            /**
                             * @description Window length in minutes; changes apply to events received afterwards
                             * @default 60
                             * @enum {number}
                             */
                            compact_every_minutes: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                            /**
                             * @description 0 keeps compacted windows forever
                             * @default 400
                             */
                            compacted_retention_days: number;
                            /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                            event_id_path?: string;
                            /** @description JSON path to the event type (column event_type) */
                            event_type_path?: string;
                            /** @default 8388608 */
                            flush_max_bytes: number;
                            /** @default 5000 */
                            flush_max_events: number;
                            /** @default 1000 */
                            flush_max_interval_ms: number;
                            /**
                             * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                             * @default none
                             * @enum {string}
                             */
                            handshake: "none" | "cloudevents";
                            /** @description JSON path to the entity the event concerns (column key) */
                            key_path?: string;
                            /**
                             * @description Larger bodies get 413 and are not stored
                             * @default 1048576
                             */
                            max_body_bytes: number;
                            persona: string;
                            /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                            rate_limit_burst?: number;
                            /** @description Requests per minute to this source (not per client) */
                            rate_limit_per_minute?: number;
                            /** @default 7 */
                            raw_retention_days: number;
                            /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                            split?: string;
                        };
                        connection: string;
                        created_at: string;
                        /** @description Subject of the administrator who created it */
                        created_by: string;
                        enabled: boolean;
                        /** @description UUIDv7 */
                        id: string;
                        name: string;
                        /** @description Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret}) */
                        path: string;
                        /** @description When the source was deleted (only while removing) */
                        removing_since?: string;
                        /**
                         * @description removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)
                         * @enum {string}
                         */
                        state: "enabled" | "disabled" | "removing";
                        /** @description The view webhook_{name} in the connection's scratch schema */
                        table: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    updateWebhookSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How senders authenticate (auth.mode: hmac, header_token, basic, path_token) */
                    auth: {
                        /**
                         * @default sha256
                         * @enum {string}
                         */
                        algorithm?: "sha256" | "sha1";
                        /**
                         * @default hex
                         * @enum {string}
                         */
                        encoding?: "hex" | "base64";
                        /** @enum {string} */
                        mode: "hmac";
                        /** @description Text before the signature in its header, e.g. `sha256=` */
                        prefix?: string;
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                        /** @description Header carrying the signature */
                        signature_header: string;
                        /**
                         * @description `timestamp.body` signs the timestamp, a dot, and the body
                         * @default body
                         * @enum {string}
                         */
                        signed?: "body" | "timestamp.body";
                        /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                        timestamp_header?: string;
                        /**
                         * @description Largest distance of that timestamp from the platform clock
                         * @default 300
                         */
                        tolerance_seconds?: number;
                    } | {
                        /** @description Header carrying the secret */
                        header: string;
                        /** @enum {string} */
                        mode: "header_token";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                    } | {
                        /** @enum {string} */
                        mode: "basic";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                        username: string;
                    } | {
                        /** @enum {string} */
                        mode: "path_token";
                        /** @description With a new secret: the previous one stays valid this many seconds */
                        rotation_overlap_seconds?: number;
                        /** @description The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one */
                        secret?: string;
                    };
                    /** @default {} */
                    config?: {
                        /**
                         * @description Events one replica holds in memory for this source before answering 503
                         * @default 50000
                         */
                        buffer_limit?: number;
                        /**
                         * @description Window length in minutes; changes apply to events received afterwards
                         * @default 60
                         * @enum {number}
                         */
                        compact_every_minutes?: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                        /**
                         * @description 0 keeps compacted windows forever
                         * @default 400
                         */
                        compacted_retention_days?: number;
                        /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                        event_id_path?: string;
                        /** @description JSON path to the event type (column event_type) */
                        event_type_path?: string;
                        /** @default 8388608 */
                        flush_max_bytes?: number;
                        /** @default 5000 */
                        flush_max_events?: number;
                        /** @default 1000 */
                        flush_max_interval_ms?: number;
                        /**
                         * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                         * @default none
                         * @enum {string}
                         */
                        handshake?: "none" | "cloudevents";
                        /** @description JSON path to the entity the event concerns (column key) */
                        key_path?: string;
                        /**
                         * @description Larger bodies get 413 and are not stored
                         * @default 1048576
                         */
                        max_body_bytes?: number;
                        /** @description Persona whose members see the compacted files in Resources and search; unset: admin.persona. Fixed at creation */
                        persona?: string;
                        /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                        rate_limit_burst?: number;
                        /** @description Requests per minute to this source (not per client) */
                        rate_limit_per_minute?: number;
                        /** @default 7 */
                        raw_retention_days?: number;
                        /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                        split?: string;
                    };
                    /** @description Must equal the current connection when given */
                    connection?: string;
                    /**
                     * @description A disabled source answers 404, like an unknown name
                     * @default true
                     */
                    enabled?: boolean;
                    /** @description Must equal the current name when given */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: {
                            /**
                             * @default sha256
                             * @enum {string}
                             */
                            algorithm: "sha256" | "sha1";
                            /**
                             * @default hex
                             * @enum {string}
                             */
                            encoding: "hex" | "base64";
                            /** @enum {string} */
                            mode: "hmac";
                            /** @description Text before the signature in its header, e.g. `sha256=` */
                            prefix?: string;
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            /** @description Header carrying the signature */
                            signature_header: string;
                            /**
                             * @description `timestamp.body` signs the timestamp, a dot, and the body
                             * @default body
                             * @enum {string}
                             */
                            signed: "body" | "timestamp.body";
                            /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                            timestamp_header?: string;
                            /**
                             * @description Largest distance of that timestamp from the platform clock
                             * @default 300
                             */
                            tolerance_seconds: number;
                        } | {
                            /** @description Header carrying the secret */
                            header: string;
                            /** @enum {string} */
                            mode: "header_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        } | {
                            /** @enum {string} */
                            mode: "basic";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            username: string;
                        } | {
                            /** @enum {string} */
                            mode: "path_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        };
                        config: {
                            /**
                             * @description Events one replica holds in memory for this source before answering 503
                             * @default 50000
                             */
                            buffer_limit: number;
                            /**
                             * @description Window length in minutes; changes apply to events received afterwards
                             * @default 60
                             * @enum {number}
                             */
                            compact_every_minutes: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                            /**
                             * @description 0 keeps compacted windows forever
                             * @default 400
                             */
                            compacted_retention_days: number;
                            /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                            event_id_path?: string;
                            /** @description JSON path to the event type (column event_type) */
                            event_type_path?: string;
                            /** @default 8388608 */
                            flush_max_bytes: number;
                            /** @default 5000 */
                            flush_max_events: number;
                            /** @default 1000 */
                            flush_max_interval_ms: number;
                            /**
                             * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                             * @default none
                             * @enum {string}
                             */
                            handshake: "none" | "cloudevents";
                            /** @description JSON path to the entity the event concerns (column key) */
                            key_path?: string;
                            /**
                             * @description Larger bodies get 413 and are not stored
                             * @default 1048576
                             */
                            max_body_bytes: number;
                            persona: string;
                            /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                            rate_limit_burst?: number;
                            /** @description Requests per minute to this source (not per client) */
                            rate_limit_per_minute?: number;
                            /** @default 7 */
                            raw_retention_days: number;
                            /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                            split?: string;
                        };
                        connection: string;
                        created_at: string;
                        /** @description Subject of the administrator who created it */
                        created_by: string;
                        enabled: boolean;
                        /** @description UUIDv7 */
                        id: string;
                        name: string;
                        /** @description Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret}) */
                        path: string;
                        /** @description When the source was deleted (only while removing) */
                        removing_since?: string;
                        /**
                         * @description removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)
                         * @enum {string}
                         */
                        state: "enabled" | "disabled" | "removing";
                        /** @description The view webhook_{name} in the connection's scratch schema */
                        table: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    deleteWebhookSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        auth: {
                            /**
                             * @default sha256
                             * @enum {string}
                             */
                            algorithm: "sha256" | "sha1";
                            /**
                             * @default hex
                             * @enum {string}
                             */
                            encoding: "hex" | "base64";
                            /** @enum {string} */
                            mode: "hmac";
                            /** @description Text before the signature in its header, e.g. `sha256=` */
                            prefix?: string;
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            /** @description Header carrying the signature */
                            signature_header: string;
                            /**
                             * @description `timestamp.body` signs the timestamp, a dot, and the body
                             * @default body
                             * @enum {string}
                             */
                            signed: "body" | "timestamp.body";
                            /** @description Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body */
                            timestamp_header?: string;
                            /**
                             * @description Largest distance of that timestamp from the platform clock
                             * @default 300
                             */
                            tolerance_seconds: number;
                        } | {
                            /** @description Header carrying the secret */
                            header: string;
                            /** @enum {string} */
                            mode: "header_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        } | {
                            /** @enum {string} */
                            mode: "basic";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                            username: string;
                        } | {
                            /** @enum {string} */
                            mode: "path_token";
                            /** @description While a rotation overlap lasts: when the previous secret stops being accepted */
                            previous_secret_until?: string;
                            /** @description Whether a secret is stored (the secret itself is never returned) */
                            secret_set: boolean;
                        };
                        config: {
                            /**
                             * @description Events one replica holds in memory for this source before answering 503
                             * @default 50000
                             */
                            buffer_limit: number;
                            /**
                             * @description Window length in minutes; changes apply to events received afterwards
                             * @default 60
                             * @enum {number}
                             */
                            compact_every_minutes: 1 | 2 | 3 | 4 | 5 | 6 | 10 | 12 | 15 | 20 | 30 | 60;
                            /**
                             * @description 0 keeps compacted windows forever
                             * @default 400
                             */
                            compacted_retention_days: number;
                            /** @description JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted) */
                            event_id_path?: string;
                            /** @description JSON path to the event type (column event_type) */
                            event_type_path?: string;
                            /** @default 8388608 */
                            flush_max_bytes: number;
                            /** @default 5000 */
                            flush_max_events: number;
                            /** @default 1000 */
                            flush_max_interval_ms: number;
                            /**
                             * @description `cloudevents` answers the CloudEvents webhook OPTIONS handshake
                             * @default none
                             * @enum {string}
                             */
                            handshake: "none" | "cloudevents";
                            /** @description JSON path to the entity the event concerns (column key) */
                            key_path?: string;
                            /**
                             * @description Larger bodies get 413 and are not stored
                             * @default 1048576
                             */
                            max_body_bytes: number;
                            persona: string;
                            /** @description Requests allowed at once above the steady rate; needs rate_limit_per_minute */
                            rate_limit_burst?: number;
                            /** @description Requests per minute to this source (not per client) */
                            rate_limit_per_minute?: number;
                            /** @default 7 */
                            raw_retention_days: number;
                            /** @description Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array */
                            split?: string;
                        };
                        connection: string;
                        created_at: string;
                        /** @description Subject of the administrator who created it */
                        created_by: string;
                        enabled: boolean;
                        /** @description UUIDv7 */
                        id: string;
                        name: string;
                        /** @description Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret}) */
                        path: string;
                        /** @description When the source was deleted (only while removing) */
                        removing_since?: string;
                        /**
                         * @description removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)
                         * @enum {string}
                         */
                        state: "enabled" | "disabled" | "removing";
                        /** @description The view webhook_{name} in the connection's scratch schema */
                        table: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    listWebhookSourceRejections: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The last 50, newest first */
                        rejections: {
                            /** @description When the request was refused (UTC) */
                            at: string;
                            /** @enum {string} */
                            outcome: "unauthorized" | "too_large" | "rate_limited" | "invalid_body" | "buffer_full" | "write_failed";
                            /** @description Why; never the body */
                            reason: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, scratch_refused, table_failed, unauthorized, forbidden, … */
                        error: string;
                        /** @description What went wrong, naming the field or the rule; a scratch refusal gives its reason verbatim */
                        message: string;
                    };
                };
            };
        };
    };
    getWebhookSourceStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures of a webhook source’s page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        /** @description Events acknowledged (a request may carry many, with split) over every replica, counted per minute */
                        events: {
                            last_day: number;
                            last_hour: number;
                        };
                        last_compacted: {
                            /** @description UTC, ISO 8601 */
                            compacted_at: string;
                            /** @description The Parquet file (a managed resource) */
                            resource_id: string | null;
                            version: number | null;
                            /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                            window: string;
                            /** @description The compaction workflow's page in the Temporal UI (temporal.ui_url); null when the UI's address is not known */
                            workflow_url: string | null;
                        } | null;
                        /** @description When the newest segment landed (its events were received just before) */
                        last_event_at: string | null;
                        /** @description The failing window that failed last; null when none is failing */
                        last_failure: {
                            attempts: number;
                            /** @description UTC, ISO 8601 */
                            failed_at: string;
                            /** @description null: retried, the next sweep takes it */
                            next_try_at: string | null;
                            reason: string;
                            /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                            window: string;
                            /** @description The compaction workflow's page in the Temporal UI (temporal.ui_url); null when the UI's address is not known */
                            workflow_url: string | null;
                        } | null;
                        name: string;
                        /** @description The last 50, newest first */
                        rejections: {
                            /** @description UTC, ISO 8601 */
                            at: string;
                            /** @enum {string} */
                            outcome: "unauthorized" | "too_large" | "rate_limited" | "invalid_body" | "buffer_full" | "write_failed";
                            reason: string;
                        }[];
                        /** @description Requests by outcome over every replica, counted per minute */
                        requests: {
                            last_day: {
                                accepted: number;
                                buffer_full: number;
                                invalid_body: number;
                                rate_limited: number;
                                too_large: number;
                                unauthorized: number;
                                unknown_source: number;
                                write_failed: number;
                            };
                            last_hour: {
                                accepted: number;
                                buffer_full: number;
                                invalid_body: number;
                                rate_limited: number;
                                too_large: number;
                                unauthorized: number;
                                unknown_source: number;
                                write_failed: number;
                            };
                        };
                        retention: {
                            /** @description 0 keeps forever */
                            compacted_retention_days: number;
                            /** @description The oldest window still held */
                            oldest_window: string | null;
                            raw_retention_days: number;
                        };
                        /** @description Where senders POST: the public base URL (portal.public_base_url, else this request’s origin; the receiver’s own port when webhooks.receiver.address is set) + /hooks/{name} */
                        sender_url: string;
                        /** @description For path_token sources: the secret goes as the last path segment (never shown) */
                        sender_url_note: string | null;
                        /** @description The table senders fill: webhook_{name} with each - as _ */
                        table: string;
                        /** @description compact_every_minutes (a window already holding segments keeps the longer of an old and a new length) */
                        window_minutes: number;
                        /** @description Ended windows not compacted, or landed in since their compaction (failing ones included); the oldest five */
                        windows_owed: {
                            count: number;
                            oldest: {
                                /** @description Failures in a row (0: not failing) */
                                attempts: number;
                                /** @description UTC, ISO 8601 */
                                ended_at: string;
                                /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                                window: string;
                                /** @description The compaction workflow's page in the Temporal UI (temporal.ui_url); null when the UI's address is not known */
                                workflow_url: string | null;
                            }[];
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    retryWebhookWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
                /** @description The window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                window: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        retried: {
                            /** @description Failures in a row so far */
                            attempts: number;
                            last_error: string | null;
                            /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                            window: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    retryFailingWebhookWindows: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        retried: {
                            /** @description Failures in a row so far */
                            attempts: number;
                            last_error: string | null;
                            /** @description A window, by its start: YYYY-MM-DDTHH:MM (UTC) */
                            window: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listInsights: {
        parameters: {
            query?: {
                category?: "correction" | "business_context" | "data_quality" | "usage_guidance" | "relationship" | "enhancement";
                /** @description Only insights about this entity URN */
                entity?: string;
                limit?: number;
                offset?: number;
                status?: "pending" | "approved" | "rejected" | "applied" | "superseded" | "rolled_back";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        insights: {
                            /** @description The decisions it takes now: approve when pending; reject when pending or approved */
                            allowed_actions: ("approve" | "reject")[];
                            /** @description The tool calls it came from */
                            call_ids: string[];
                            captured_by: {
                                email: string | null;
                                persona: string | null;
                                subject: string;
                            };
                            /** @enum {string} */
                            category: "correction" | "business_context" | "data_quality" | "usage_guidance" | "relationship" | "enhancement";
                            /** @description The changeset that applied it */
                            changeset_id: string | null;
                            /** @enum {string} */
                            confidence: "high" | "medium" | "low";
                            created_at: string;
                            entity_urns: string[];
                            id: string;
                            insight_text: string;
                            related_columns: {
                                column: string;
                                relevance?: string;
                                urn: string;
                            }[];
                            review: {
                                notes: string | null;
                                reviewed_at: string | null;
                                /** @description Email, else subject */
                                reviewed_by: string | null;
                            };
                            session_id: string | null;
                            /** @enum {string} */
                            source: "user" | "agent_discovery" | "enrichment_gap";
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected" | "applied" | "superseded" | "rolled_back";
                            suggested_actions: {
                                /** @enum {string} */
                                action_type: "update_description" | "add_tag" | "remove_tag" | "add_glossary_term" | "add_documentation";
                                detail: string;
                                target?: string;
                            }[];
                            /** @description How often it was captured (near-duplicates count here) */
                            times_captured: number;
                            updated_at: string;
                        }[];
                        limit: number;
                        next_offset: number | null;
                        offset: number;
                        total: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    approveInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional: a request without a body decides without notes */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why (kept with the insight) */
                    review_notes?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description false: it was in that state already (a repeated request) */
                        changed: boolean;
                        /** @description A captured insight */
                        insight: {
                            /** @description The decisions it takes now: approve when pending; reject when pending or approved */
                            allowed_actions: ("approve" | "reject")[];
                            /** @description The tool calls it came from */
                            call_ids: string[];
                            captured_by: {
                                email: string | null;
                                persona: string | null;
                                subject: string;
                            };
                            /** @enum {string} */
                            category: "correction" | "business_context" | "data_quality" | "usage_guidance" | "relationship" | "enhancement";
                            /** @description The changeset that applied it */
                            changeset_id: string | null;
                            /** @enum {string} */
                            confidence: "high" | "medium" | "low";
                            created_at: string;
                            entity_urns: string[];
                            id: string;
                            insight_text: string;
                            related_columns: {
                                column: string;
                                relevance?: string;
                                urn: string;
                            }[];
                            review: {
                                notes: string | null;
                                reviewed_at: string | null;
                                /** @description Email, else subject */
                                reviewed_by: string | null;
                            };
                            session_id: string | null;
                            /** @enum {string} */
                            source: "user" | "agent_discovery" | "enrichment_gap";
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected" | "applied" | "superseded" | "rolled_back";
                            suggested_actions: {
                                /** @enum {string} */
                                action_type: "update_description" | "add_tag" | "remove_tag" | "add_glossary_term" | "add_documentation";
                                detail: string;
                                target?: string;
                            }[];
                            /** @description How often it was captured (near-duplicates count here) */
                            times_captured: number;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    rejectInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional: a request without a body decides without notes */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why (kept with the insight) */
                    review_notes?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description false: it was in that state already (a repeated request) */
                        changed: boolean;
                        /** @description A captured insight */
                        insight: {
                            /** @description The decisions it takes now: approve when pending; reject when pending or approved */
                            allowed_actions: ("approve" | "reject")[];
                            /** @description The tool calls it came from */
                            call_ids: string[];
                            captured_by: {
                                email: string | null;
                                persona: string | null;
                                subject: string;
                            };
                            /** @enum {string} */
                            category: "correction" | "business_context" | "data_quality" | "usage_guidance" | "relationship" | "enhancement";
                            /** @description The changeset that applied it */
                            changeset_id: string | null;
                            /** @enum {string} */
                            confidence: "high" | "medium" | "low";
                            created_at: string;
                            entity_urns: string[];
                            id: string;
                            insight_text: string;
                            related_columns: {
                                column: string;
                                relevance?: string;
                                urn: string;
                            }[];
                            review: {
                                notes: string | null;
                                reviewed_at: string | null;
                                /** @description Email, else subject */
                                reviewed_by: string | null;
                            };
                            session_id: string | null;
                            /** @enum {string} */
                            source: "user" | "agent_discovery" | "enrichment_gap";
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected" | "applied" | "superseded" | "rolled_back";
                            suggested_actions: {
                                /** @enum {string} */
                                action_type: "update_description" | "add_tag" | "remove_tag" | "add_glossary_term" | "add_documentation";
                                detail: string;
                                target?: string;
                            }[];
                            /** @description How often it was captured (near-duplicates count here) */
                            times_captured: number;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, not_found, conflict, unauthorized, forbidden */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listAssets: {
        parameters: {
            query?: {
                cursor?: string;
                /** @description Default 50 */
                limit?: number;
                query?: string;
                scope?: "mine" | "shared_with_me" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description What the caller may do, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Edit details, save a version, restore: the owner and platform administrators */
                                change: boolean;
                                delete: boolean;
                                /** @description Details, content, versions */
                                read: boolean;
                                /** @description Create, list and revoke shares: the owner and platform administrators */
                                share: boolean;
                            };
                            content_sha256: string;
                            /** @enum {string} */
                            content_type: "text/markdown" | "text/html" | "text/jsx" | "image/svg+xml" | "text/csv" | "application/json" | "text/plain" | "image/png";
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            owner: {
                                email?: string;
                                subject: string;
                            };
                            /** @description The asset's portal page, when a base URL is known */
                            portal_url?: string;
                            shares: {
                                active: number;
                                /** @description A live public link exists */
                                public_link: boolean;
                            };
                            size: number;
                            tags: string[];
                            updated_at: string;
                            /** @description The current version */
                            version: number;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Edit details, save a version, restore: the owner and platform administrators */
                            change: boolean;
                            delete: boolean;
                            /** @description Details, content, versions */
                            read: boolean;
                            /** @description Create, list and revoke shares: the owner and platform administrators */
                            share: boolean;
                        };
                        content_sha256: string;
                        /** @enum {string} */
                        content_type: "text/markdown" | "text/html" | "text/jsx" | "image/svg+xml" | "text/csv" | "application/json" | "text/plain" | "image/png";
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The asset's portal page, when a base URL is known */
                        portal_url?: string;
                        /** @description Who and what produced the current version */
                        provenance: {
                            author: string;
                            /** @description Tool calls of that session on record before the save, oldest first */
                            calls: {
                                at: string;
                                id: string;
                                outcome: string;
                                tool: string;
                            }[];
                            /** @enum {string} */
                            origin: "agent" | "person";
                            /** @description The MCP session that saved the version */
                            session_id: string | null;
                            /** @description What the agent said it drew on */
                            sources: string[];
                        };
                        /** @description Resources the current version points at */
                        references: {
                            /** @description The resource was deleted (with force): the asset reports the file as missing */
                            missing: boolean;
                            name?: string;
                            /** @description The caller may open the resource (its page: /portal/resources/<id>); name and uri only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            uri?: string;
                        }[];
                        shares: {
                            active: number;
                            /** @description A live public link exists */
                            public_link: boolean;
                        };
                        size: number;
                        tags: string[];
                        updated_at: string;
                        /** @description The current version */
                        version: number;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    updateAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    name?: string;
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description Asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Edit details, save a version, restore: the owner and platform administrators */
                            change: boolean;
                            delete: boolean;
                            /** @description Details, content, versions */
                            read: boolean;
                            /** @description Create, list and revoke shares: the owner and platform administrators */
                            share: boolean;
                        };
                        content_sha256: string;
                        /** @enum {string} */
                        content_type: "text/markdown" | "text/html" | "text/jsx" | "image/svg+xml" | "text/csv" | "application/json" | "text/plain" | "image/png";
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The asset's portal page, when a base URL is known */
                        portal_url?: string;
                        shares: {
                            active: number;
                            /** @description A live public link exists */
                            public_link: boolean;
                        };
                        size: number;
                        tags: string[];
                        updated_at: string;
                        /** @description The current version */
                        version: number;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    downloadAssetContent: {
        parameters: {
            query?: {
                /** @description A kept version instead of the current one */
                version?: number;
            };
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getAssetFrame: {
        parameters: {
            query?: {
                /** @description The page's theme, for a JSX component that follows it */
                theme?: "light" | "dark";
                /** @description A kept version instead of the current one */
                version?: number;
            };
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The frame document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listAssetShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            asset_id: string;
                            created_at: string;
                            created_by: string;
                            expires_at: string | null;
                            hide_expiration: boolean;
                            id: string;
                            last_viewed_at: string | null;
                            /** @description null: the built-in confidentiality notice; "": no notice */
                            notice_text: string | null;
                            /** @description A public link: anyone holding it may open it, signed in or not */
                            public: boolean;
                            revoked_at: string | null;
                            shared_with_email: string | null;
                            shared_with_user_id: string | null;
                            /** @enum {string} */
                            state: "active" | "expired" | "revoked";
                            view_count: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createAssetShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        /** @description Share creation body (spec document 1) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Duration string (e.g. 24h, 7d, 1h30m); none: until revoked */
                    expires_in?: string;
                    /** @description Hide the expiration countdown in the public viewer */
                    hide_expiration?: boolean;
                    /** @description Omit or null gives the built-in confidentiality notice; "" hides the notice; at most 500 characters */
                    notice_text?: string | null;
                    /** @description Target address for a private share */
                    shared_with_email?: string;
                    /** @description Target user id (subject) for a private share */
                    shared_with_user_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description /portal/view/<token> */
                        path: string;
                        /** @description Share (its link is shown only when it is created) */
                        share: {
                            asset_id: string;
                            created_at: string;
                            created_by: string;
                            expires_at: string | null;
                            hide_expiration: boolean;
                            id: string;
                            last_viewed_at: string | null;
                            /** @description null: the built-in confidentiality notice; "": no notice */
                            notice_text: string | null;
                            /** @description A public link: anyone holding it may open it, signed in or not */
                            public: boolean;
                            revoked_at: string | null;
                            shared_with_email: string | null;
                            shared_with_user_id: string | null;
                            /** @enum {string} */
                            state: "active" | "expired" | "revoked";
                            view_count: number;
                        };
                        /** @description The link's secret: shown once */
                        token: string;
                        /** @description The full link, when a base URL is known (portal.public_base_url) */
                        url?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    revokeAssetShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
                shareId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Share (its link is shown only when it is created) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        asset_id: string;
                        created_at: string;
                        created_by: string;
                        expires_at: string | null;
                        hide_expiration: boolean;
                        id: string;
                        last_viewed_at: string | null;
                        /** @description null: the built-in confidentiality notice; "": no notice */
                        notice_text: string | null;
                        /** @description A public link: anyone holding it may open it, signed in or not */
                        public: boolean;
                        revoked_at: string | null;
                        shared_with_email: string | null;
                        shared_with_user_id: string | null;
                        /** @enum {string} */
                        state: "active" | "expired" | "revoked";
                        view_count: number;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listAssetVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            author: string;
                            calls_recorded: number;
                            change_summary: string | null;
                            content_sha256: string;
                            content_type: string;
                            created_at: string;
                            /** @enum {string} */
                            origin: "agent" | "person";
                            restored_from: number | null;
                            session_id: string | null;
                            size: number;
                            version: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    restoreAssetVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id */
                id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Edit details, save a version, restore: the owner and platform administrators */
                            change: boolean;
                            delete: boolean;
                            /** @description Details, content, versions */
                            read: boolean;
                            /** @description Create, list and revoke shares: the owner and platform administrators */
                            share: boolean;
                        };
                        content_sha256: string;
                        /** @enum {string} */
                        content_type: "text/markdown" | "text/html" | "text/jsx" | "image/svg+xml" | "text/csv" | "application/json" | "text/plain" | "image/png";
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The asset's portal page, when a base URL is known */
                        portal_url?: string;
                        shares: {
                            active: number;
                            /** @description A live public link exists */
                            public_link: boolean;
                        };
                        size: number;
                        tags: string[];
                        updated_at: string;
                        /** @description The current version */
                        version: number;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listPrompts: {
        parameters: {
            query?: {
                filter?: "mine" | "visible";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description What the caller may do, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Attach, detach, reorder */
                                attach: boolean;
                                /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                                change: boolean;
                                /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                                scopes: string[];
                            };
                            arguments: {
                                description?: string;
                                /** @description The {name} placeholder it fills */
                                name: string;
                                required: boolean;
                            }[];
                            /** @description In the authored order */
                            attachments: {
                                content_type?: string;
                                library?: string;
                                /** @description The resource was deleted: the prompt reports the material as missing */
                                missing: boolean;
                                /** @description The resource's display name (as attached, for missing material) */
                                name: string;
                                /** @description 0 first */
                                position: number;
                                /** @description The caller may open the resource; uri, library, content_type and size only then */
                                readable: boolean;
                                /** @description mcp:resource:<id> */
                                reference: string;
                                resource_id: string;
                                size?: number;
                                uri?: string;
                            }[];
                            content: string;
                            created_at: string;
                            description: string;
                            id: string;
                            name: string;
                            owner: {
                                email?: string;
                                subject: string;
                            };
                            /** @description The persona of a persona prompt */
                            persona?: string;
                            /** @description mcp:prompt:<id> */
                            reference: string;
                            /** @enum {string} */
                            scope: "personal" | "persona" | "shared";
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    arguments?: {
                        description?: string;
                        /** @description The {name} placeholder it fills */
                        name: string;
                        required?: boolean;
                    }[];
                    content: string;
                    description?: string;
                    name: string;
                    persona?: string;
                    /**
                     * @description personal (default), persona (with persona), shared (platform administrators)
                     * @enum {string}
                     */
                    scope?: "personal" | "persona" | "shared";
                };
            };
        };
        responses: {
            /** @description Prompt */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deletePrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    updatePrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    arguments?: {
                        description?: string;
                        /** @description The {name} placeholder it fills */
                        name: string;
                        required?: boolean;
                    }[];
                    /** @description {arg} placeholders are replaced by the arguments */
                    content?: string;
                    description?: string;
                    name?: string;
                    persona?: string;
                    /**
                     * @description personal (default), persona (with persona), shared (platform administrators)
                     * @enum {string}
                     */
                    scope?: "personal" | "persona" | "shared";
                };
            };
        };
        responses: {
            /** @description Prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    reorderPromptAttachments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    resource_ids: string[];
                };
            };
        };
        responses: {
            /** @description Prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    attachPromptResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    position?: number;
                    /** @description The resource's id (or mcp:resource:<id>) */
                    resource_id: string;
                };
            };
        };
        responses: {
            /** @description Prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    detachPromptResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prompt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Attach, detach, reorder */
                            attach: boolean;
                            /** @description Edit and delete: the owner, or an administrator of the prompt's scope */
                            change: boolean;
                            /** @description Scopes it may be moved to: personal, persona:<name>, shared */
                            scopes: string[];
                        };
                        arguments: {
                            description?: string;
                            /** @description The {name} placeholder it fills */
                            name: string;
                            required: boolean;
                        }[];
                        /** @description In the authored order */
                        attachments: {
                            content_type?: string;
                            library?: string;
                            /** @description The resource was deleted: the prompt reports the material as missing */
                            missing: boolean;
                            /** @description The resource's display name (as attached, for missing material) */
                            name: string;
                            /** @description 0 first */
                            position: number;
                            /** @description The caller may open the resource; uri, library, content_type and size only then */
                            readable: boolean;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            resource_id: string;
                            size?: number;
                            uri?: string;
                        }[];
                        content: string;
                        created_at: string;
                        description: string;
                        id: string;
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The persona of a persona prompt */
                        persona?: string;
                        /** @description mcp:prompt:<id> */
                        reference: string;
                        /** @enum {string} */
                        scope: "personal" | "persona" | "shared";
                        updated_at: string;
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, forbidden, invalid, conflict, attachment_narrower, limit, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule (an attachment_narrower refusal names the resource) */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listScripts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        scripts: {
                            /** @description What the caller may do, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description New versions, state changes, deletion: the owner and administrators */
                                change: boolean;
                                /** @description The source: a script's to its owner and administrators, a library's to everyone */
                                read_source: boolean;
                            };
                            created_at: string;
                            current_version: number;
                            /** @description The entry points the source exports */
                            entry_points: ("main" | "handle")[];
                            /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                            id: string;
                            /** @description The libraries the source imports, by name */
                            imports: string[];
                            /**
                             * @description script: exports main() and/or handle(req); library: neither
                             * @enum {string}
                             */
                            kind: "script" | "library";
                            /** @description Unique display name; also the name a library is imported by */
                            name: string;
                            owner: {
                                email?: string;
                                subject: string;
                            };
                            /**
                             * @description Only active scripts run; active and deprecated libraries are imported
                             * @enum {string}
                             */
                            state: "active" | "disabled" | "deprecated" | "superseded";
                            /** @description The replacement of a superseded script */
                            superseded_by?: {
                                id: string;
                                name: string;
                            };
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Lowercase letters, digits, - and _, starting with a letter; at most 63 */
                    name: string;
                    /** @description The source: an ES module (at most 262144 bytes, UTF-8; more is 413) */
                    source: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description unchanged: the source and its library pins were the current version's, so no version was written
                         * @enum {string}
                         */
                        outcome: "created" | "revised" | "unchanged";
                        /** @description Script with its versions */
                        script: {
                            /** @description What the caller may do, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description New versions, state changes, deletion: the owner and administrators */
                                change: boolean;
                                /** @description The source: a script's to its owner and administrators, a library's to everyone */
                                read_source: boolean;
                            };
                            created_at: string;
                            current_version: number;
                            /** @description The entry points the source exports */
                            entry_points: ("main" | "handle")[];
                            /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                            id: string;
                            /** @description The libraries the source imports, by name */
                            imports: string[];
                            /**
                             * @description script: exports main() and/or handle(req); library: neither
                             * @enum {string}
                             */
                            kind: "script" | "library";
                            /** @description Unique display name; also the name a library is imported by */
                            name: string;
                            owner: {
                                email?: string;
                                subject: string;
                            };
                            /** @description The source of source_version, when allowed_actions.read_source */
                            source?: string;
                            source_version: number;
                            /**
                             * @description Only active scripts run; active and deprecated libraries are imported
                             * @enum {string}
                             */
                            state: "active" | "disabled" | "deprecated" | "superseded";
                            /** @description The replacement of a superseded script */
                            superseded_by?: {
                                id: string;
                                name: string;
                            };
                            updated_at: string;
                            /** @description Newest first */
                            versions: {
                                author: {
                                    email?: string;
                                    subject: string;
                                };
                                /** @description The author's roles at save time: runs of this version act with them */
                                author_roles: string[];
                                created_at: string;
                                /** @description The entry points the source exports */
                                entry_points: ("main" | "handle")[];
                                /** @description The libraries the source imports, by name */
                                imports: string[];
                                /** @enum {string} */
                                kind: "script" | "library";
                                number: number;
                                /** @description Every library the version reaches, directly or through libraries, at the version its save resolved: what its runs import (re-save to upgrade) */
                                pins: {
                                    /** @description The name it is imported by */
                                    library: string;
                                    /** @description null once the library was deleted */
                                    library_id: string | null;
                                    version: number | null;
                                }[];
                                /** @description Hex SHA-256 of the source (UTF-8) */
                                sha256: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getScript: {
        parameters: {
            query?: {
                /** @description The version whose source to return (default: the current one) */
                version?: number;
            };
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Script with its versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /** @description The source of source_version, when allowed_actions.read_source */
                        source?: string;
                        source_version: number;
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                        /** @description Newest first */
                        versions: {
                            author: {
                                email?: string;
                                subject: string;
                            };
                            /** @description The author's roles at save time: runs of this version act with them */
                            author_roles: string[];
                            created_at: string;
                            /** @description The entry points the source exports */
                            entry_points: ("main" | "handle")[];
                            /** @description The libraries the source imports, by name */
                            imports: string[];
                            /** @enum {string} */
                            kind: "script" | "library";
                            number: number;
                            /** @description Every library the version reaches, directly or through libraries, at the version its save resolved: what its runs import (re-save to upgrade) */
                            pins: {
                                /** @description The name it is imported by */
                                library: string;
                                /** @description null once the library was deleted */
                                library_id: string | null;
                                version: number | null;
                            }[];
                            /** @description Hex SHA-256 of the source (UTF-8) */
                            sha256: string;
                        }[];
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    updateScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The source: an ES module (at most 262144 bytes, UTF-8; more is 413) */
                    source: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description unchanged: the source and its library pins were the current version's, so no version was written
                         * @enum {string}
                         */
                        outcome: "created" | "revised" | "unchanged";
                        /** @description Script with its versions */
                        script: {
                            /** @description What the caller may do, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description New versions, state changes, deletion: the owner and administrators */
                                change: boolean;
                                /** @description The source: a script's to its owner and administrators, a library's to everyone */
                                read_source: boolean;
                            };
                            created_at: string;
                            current_version: number;
                            /** @description The entry points the source exports */
                            entry_points: ("main" | "handle")[];
                            /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                            id: string;
                            /** @description The libraries the source imports, by name */
                            imports: string[];
                            /**
                             * @description script: exports main() and/or handle(req); library: neither
                             * @enum {string}
                             */
                            kind: "script" | "library";
                            /** @description Unique display name; also the name a library is imported by */
                            name: string;
                            owner: {
                                email?: string;
                                subject: string;
                            };
                            /** @description The source of source_version, when allowed_actions.read_source */
                            source?: string;
                            source_version: number;
                            /**
                             * @description Only active scripts run; active and deprecated libraries are imported
                             * @enum {string}
                             */
                            state: "active" | "disabled" | "deprecated" | "superseded";
                            /** @description The replacement of a superseded script */
                            superseded_by?: {
                                id: string;
                                name: string;
                            };
                            updated_at: string;
                            /** @description Newest first */
                            versions: {
                                author: {
                                    email?: string;
                                    subject: string;
                                };
                                /** @description The author's roles at save time: runs of this version act with them */
                                author_roles: string[];
                                created_at: string;
                                /** @description The entry points the source exports */
                                entry_points: ("main" | "handle")[];
                                /** @description The libraries the source imports, by name */
                                imports: string[];
                                /** @enum {string} */
                                kind: "script" | "library";
                                number: number;
                                /** @description Every library the version reaches, directly or through libraries, at the version its save resolved: what its runs import (re-save to upgrade) */
                                pins: {
                                    /** @description The name it is imported by */
                                    library: string;
                                    /** @description null once the library was deleted */
                                    library_id: string | null;
                                    version: number | null;
                                }[];
                                /** @description Hex SHA-256 of the source (UTF-8) */
                                sha256: string;
                            }[];
                        };
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deprecateScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    disableScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    enableScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getScriptEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A script's endpoint binding */
                        binding: {
                            allowed_origins: string[];
                            /** @enum {string} */
                            auth_mode: "signed_in" | "public";
                            /** @description Requests per minute for one signed-in caller, per replica */
                            caller_rate_limit: number;
                            created_at: string;
                            created_by: string;
                            /** @description A disabled endpoint answers 404 */
                            enabled: boolean;
                            /** @description The name in /endpoints/{name} */
                            endpoint: string;
                            max_body_bytes: number;
                            max_memory_bytes: number;
                            /** @description Methods answered; HEAD is answered wherever GET is */
                            methods: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
                            /** @description On a public endpoint, GET and HEAD need no bot check */
                            open_reads: boolean;
                            /** @description Template under the name ("" or e.g. /items/{id}) */
                            path: string;
                            /** @description Requests per minute for the endpoint, per replica */
                            rate_limit: number;
                            script: {
                                id: string;
                                name: string;
                            };
                            timeout_seconds: number;
                            /** @description The binding's write time: a change takes effect on the next request on every replica */
                            updated_at: string;
                            updated_by: string;
                        };
                        failures: {
                            duration_ms: number;
                            endpoint: string;
                            /** @description The script's error (never shown to the endpoint's caller) */
                            error: string;
                            id: string;
                            method: string;
                            occurred_at: string;
                            script_id: string | null;
                            session_id: string;
                            /** @description 500, 503 or 504 */
                            status: number;
                            version: number | null;
                        }[];
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    putScriptEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Browser origins scheme://host[:port] (no path, no wildcard) allowed cross-origin; default none */
                    allowed_origins?: string[];
                    /**
                     * @description signed_in: a browser session or an API key; public: a bot check
                     * @enum {string}
                     */
                    auth_mode: "signed_in" | "public";
                    /** @description Default 120 per minute per replica */
                    caller_rate_limit?: number;
                    /** @description Lowercase letters, digits, - and _ (at most 63); unique across the deployment */
                    endpoint: string;
                    /** @description Default 1 MiB, at most 10 MiB */
                    max_body_bytes?: number;
                    /** @description Default 64 MiB, 16 to 256 MiB */
                    max_memory_bytes?: number;
                    /** @description Of GET, POST, PUT, PATCH, DELETE (default [GET]); HEAD is never listed: it is answered wherever GET is */
                    methods?: string[];
                    /** @description Public endpoints only: GET and HEAD need no bot check (default false) */
                    open_reads?: boolean;
                    /** @description Template: empty, or /segments where {name} takes one segment (req.params.name); default empty */
                    path?: string;
                    /** @description Default 600 per minute per replica */
                    rate_limit?: number;
                    /** @description Default 10, 1 to 60 */
                    timeout_seconds?: number;
                };
            };
        };
        responses: {
            /** @description A script's endpoint binding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allowed_origins: string[];
                        /** @enum {string} */
                        auth_mode: "signed_in" | "public";
                        /** @description Requests per minute for one signed-in caller, per replica */
                        caller_rate_limit: number;
                        created_at: string;
                        created_by: string;
                        /** @description A disabled endpoint answers 404 */
                        enabled: boolean;
                        /** @description The name in /endpoints/{name} */
                        endpoint: string;
                        max_body_bytes: number;
                        max_memory_bytes: number;
                        /** @description Methods answered; HEAD is answered wherever GET is */
                        methods: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
                        /** @description On a public endpoint, GET and HEAD need no bot check */
                        open_reads: boolean;
                        /** @description Template under the name ("" or e.g. /items/{id}) */
                        path: string;
                        /** @description Requests per minute for the endpoint, per replica */
                        rate_limit: number;
                        script: {
                            id: string;
                            name: string;
                        };
                        timeout_seconds: number;
                        /** @description The binding's write time: a change takes effect on the next request on every replica */
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteScriptEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's endpoint binding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allowed_origins: string[];
                        /** @enum {string} */
                        auth_mode: "signed_in" | "public";
                        /** @description Requests per minute for one signed-in caller, per replica */
                        caller_rate_limit: number;
                        created_at: string;
                        created_by: string;
                        /** @description A disabled endpoint answers 404 */
                        enabled: boolean;
                        /** @description The name in /endpoints/{name} */
                        endpoint: string;
                        max_body_bytes: number;
                        max_memory_bytes: number;
                        /** @description Methods answered; HEAD is answered wherever GET is */
                        methods: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
                        /** @description On a public endpoint, GET and HEAD need no bot check */
                        open_reads: boolean;
                        /** @description Template under the name ("" or e.g. /items/{id}) */
                        path: string;
                        /** @description Requests per minute for the endpoint, per replica */
                        rate_limit: number;
                        script: {
                            id: string;
                            name: string;
                        };
                        timeout_seconds: number;
                        /** @description The binding's write time: a change takes effect on the next request on every replica */
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    disableScriptEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's endpoint binding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allowed_origins: string[];
                        /** @enum {string} */
                        auth_mode: "signed_in" | "public";
                        /** @description Requests per minute for one signed-in caller, per replica */
                        caller_rate_limit: number;
                        created_at: string;
                        created_by: string;
                        /** @description A disabled endpoint answers 404 */
                        enabled: boolean;
                        /** @description The name in /endpoints/{name} */
                        endpoint: string;
                        max_body_bytes: number;
                        max_memory_bytes: number;
                        /** @description Methods answered; HEAD is answered wherever GET is */
                        methods: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
                        /** @description On a public endpoint, GET and HEAD need no bot check */
                        open_reads: boolean;
                        /** @description Template under the name ("" or e.g. /items/{id}) */
                        path: string;
                        /** @description Requests per minute for the endpoint, per replica */
                        rate_limit: number;
                        script: {
                            id: string;
                            name: string;
                        };
                        timeout_seconds: number;
                        /** @description The binding's write time: a change takes effect on the next request on every replica */
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    enableScriptEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's endpoint binding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        allowed_origins: string[];
                        /** @enum {string} */
                        auth_mode: "signed_in" | "public";
                        /** @description Requests per minute for one signed-in caller, per replica */
                        caller_rate_limit: number;
                        created_at: string;
                        created_by: string;
                        /** @description A disabled endpoint answers 404 */
                        enabled: boolean;
                        /** @description The name in /endpoints/{name} */
                        endpoint: string;
                        max_body_bytes: number;
                        max_memory_bytes: number;
                        /** @description Methods answered; HEAD is answered wherever GET is */
                        methods: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE")[];
                        /** @description On a public endpoint, GET and HEAD need no bot check */
                        open_reads: boolean;
                        /** @description Template under the name ("" or e.g. /items/{id}) */
                        path: string;
                        /** @description Requests per minute for the endpoint, per replica */
                        rate_limit: number;
                        script: {
                            id: string;
                            name: string;
                        };
                        timeout_seconds: number;
                        /** @description The binding's write time: a change takes effect on the next request on every replica */
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    runScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Console output, bounded by scripts.console_limit_bytes */
                        console: string;
                        duration_ms: number;
                        /** @description What stopped the run, otherwise */
                        error?: string;
                        /** @description main()'s result as JSON, when ok */
                        result?: unknown;
                        /** @description The run record (script_runs) */
                        run_id: string;
                        /**
                         * @description busy: no run slot of this replica was open to it (scripts.max_concurrent_runs, scripts.handler_reserved_runs) or the caller already had scripts.max_runs_per_caller runs under way; the error names the cap
                         * @enum {string}
                         */
                        status: "ok" | "error" | "timeout" | "memory" | "busy";
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Run */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Console output, bounded by scripts.console_limit_bytes */
                        console: string;
                        duration_ms: number;
                        /** @description What stopped the run, otherwise */
                        error?: string;
                        /** @description main()'s result as JSON, when ok */
                        result?: unknown;
                        /** @description The run record (script_runs) */
                        run_id: string;
                        /**
                         * @description busy: no run slot of this replica was open to it (scripts.max_concurrent_runs, scripts.handler_reserved_runs) or the caller already had scripts.max_runs_per_caller runs under way; the error names the cap
                         * @enum {string}
                         */
                        status: "ok" | "error" | "timeout" | "memory" | "busy";
                    };
                };
            };
        };
    };
    listScriptRuns: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                before?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass as before for the next page; null on the last */
                        next_cursor: string | null;
                        runs: {
                            /** @description The first 8 KiB of the console */
                            console: string;
                            duration_ms: number;
                            error: string | null;
                            finished_at: string;
                            id: string;
                            /** @description Whom it acted as */
                            principal: string;
                            /** @description An administrator's retry: the failed run it repeats */
                            retry_of: string | null;
                            /** @description When the schedule fired it (scheduled runs) */
                            scheduled_at: string | null;
                            started_at: string;
                            /** @description Who started it: the caller of a draft run, script:<name> for a scheduled one */
                            started_by: string;
                            /** @enum {string} */
                            status: "ok" | "error" | "timeout" | "memory" | "busy";
                            /** @enum {string} */
                            trigger: "draft" | "schedule";
                            version: number | null;
                        }[];
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    retryScheduledScriptRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
                /** @description The failed run */
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflow_id: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getScriptSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's schedule: each run calls main() as script:<name>, recorded and audited (script_run, trigger schedule); only an active script runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        /** @description A cron expression (5 fields, or @hourly, @daily, …), read in time_zone */
                        cron?: string;
                        /** @description Instead of cron: the interval between runs, in ms */
                        interval_ms?: number;
                        paused: boolean;
                        script: {
                            id: string;
                            name: string;
                        };
                        /** @description IANA time zone */
                        time_zone: string;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    putScriptSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description minute hour day-of-month month day-of-week, or @yearly, @monthly, @weekly, @daily, @hourly */
                    cron?: string;
                    /** @description Instead of cron: an interval like 15m or 6h (at least 1m) */
                    every?: string;
                    /** @description IANA time zone the cron is read in (default UTC) */
                    time_zone?: string;
                };
            };
        };
        responses: {
            /** @description A script's schedule: each run calls main() as script:<name>, recorded and audited (script_run, trigger schedule); only an active script runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        /** @description A cron expression (5 fields, or @hourly, @daily, …), read in time_zone */
                        cron?: string;
                        /** @description Instead of cron: the interval between runs, in ms */
                        interval_ms?: number;
                        paused: boolean;
                        script: {
                            id: string;
                            name: string;
                        };
                        /** @description IANA time zone */
                        time_zone: string;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteScriptSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: boolean;
                        script: {
                            id: string;
                            name: string;
                        };
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    pauseScriptSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's schedule: each run calls main() as script:<name>, recorded and audited (script_run, trigger schedule); only an active script runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        /** @description A cron expression (5 fields, or @hourly, @daily, …), read in time_zone */
                        cron?: string;
                        /** @description Instead of cron: the interval between runs, in ms */
                        interval_ms?: number;
                        paused: boolean;
                        script: {
                            id: string;
                            name: string;
                        };
                        /** @description IANA time zone */
                        time_zone: string;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    resumeScriptSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A script's schedule: each run calls main() as script:<name>, recorded and audited (script_run, trigger schedule); only an active script runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        /** @description A cron expression (5 fields, or @hourly, @daily, …), read in time_zone */
                        cron?: string;
                        /** @description Instead of cron: the interval between runs, in ms */
                        interval_ms?: number;
                        paused: boolean;
                        script: {
                            id: string;
                            name: string;
                        };
                        /** @description IANA time zone */
                        time_zone: string;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    supersedeScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Id (or name) of the active script of the same kind that replaces this one */
                    superseded_by: string;
                };
            };
        };
        responses: {
            /** @description Script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What the caller may do, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description New versions, state changes, deletion: the owner and administrators */
                            change: boolean;
                            /** @description The source: a script's to its owner and administrators, a library's to everyone */
                            read_source: boolean;
                        };
                        created_at: string;
                        current_version: number;
                        /** @description The entry points the source exports */
                        entry_points: ("main" | "handle")[];
                        /** @description Stable id (UUIDv7); writer records and endpoint bindings hold it */
                        id: string;
                        /** @description The libraries the source imports, by name */
                        imports: string[];
                        /**
                         * @description script: exports main() and/or handle(req); library: neither
                         * @enum {string}
                         */
                        kind: "script" | "library";
                        /** @description Unique display name; also the name a library is imported by */
                        name: string;
                        owner: {
                            email?: string;
                            subject: string;
                        };
                        /**
                         * @description Only active scripts run; active and deprecated libraries are imported
                         * @enum {string}
                         */
                        state: "active" | "disabled" | "deprecated" | "superseded";
                        /** @description The replacement of a superseded script */
                        superseded_by?: {
                            id: string;
                            name: string;
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    runInlineScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The unsaved source to run: its main() runs as the caller, with the caller's roles */
                    source: string;
                };
            };
        };
        responses: {
            /** @description Run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Console output, bounded by scripts.console_limit_bytes */
                        console: string;
                        duration_ms: number;
                        /** @description What stopped the run, otherwise */
                        error?: string;
                        /** @description main()'s result as JSON, when ok */
                        result?: unknown;
                        /** @description The run record (script_runs) */
                        run_id: string;
                        /**
                         * @description busy: no run slot of this replica was open to it (scripts.max_concurrent_runs, scripts.handler_reserved_runs) or the caller already had scripts.max_runs_per_caller runs under way; the error names the cap
                         * @enum {string}
                         */
                        status: "ok" | "error" | "timeout" | "memory" | "busy";
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; a syntax error adds line and column (1-based), a bound script its endpoint, a library in use its importers */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description invalid, syntax, forbidden, not_found, name_taken, bound, state, in_use, too_large, unauthorized, csrf_required, … */
                        error: string;
                        /** @description What went wrong, naming the rule; a syntax error gives line:column */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Run */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Console output, bounded by scripts.console_limit_bytes */
                        console: string;
                        duration_ms: number;
                        /** @description What stopped the run, otherwise */
                        error?: string;
                        /** @description main()'s result as JSON, when ok */
                        result?: unknown;
                        /** @description The run record (script_runs) */
                        run_id: string;
                        /**
                         * @description busy: no run slot of this replica was open to it (scripts.max_concurrent_runs, scripts.handler_reserved_runs) or the caller already had scripts.max_runs_per_caller runs under way; the error names the cap
                         * @enum {string}
                         */
                        status: "ok" | "error" | "timeout" | "memory" | "busy";
                    };
                };
            };
        };
    };
    getPortalSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description browser_session, or how else the caller authenticated (apikey, oidc, …) */
                        auth_type: string;
                        /** @description Browser sessions only: send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE */
                        csrf_token?: string;
                        email?: string;
                        /** @description Browser sessions only: when the session ends (RFC 3339); sign in again then */
                        expires_at?: string;
                        name?: string;
                        roles: string[];
                        /** @description Namespaced subject: oidc:<issuer>#<sub> for a browser session, the same identity as the person’s OIDC bearer token */
                        subject: string;
                    };
                };
            };
            /** @description Default Response */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    getPortalSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description admin.path_prefix when admin.enabled (where the administrators' pages call the admin API), else empty; whether the caller may use it is GET {prefix}/access */
                        admin_path_prefix: string;
                        /** @description The inline preview bound (spec document 2, Limits: fetch returns bytes inline up to 1 MB): a text file up to this size is shown in the preview pane and opens in the source editor; a larger one is offered as a download */
                        inline_preview_bytes: number;
                        /** @description portal.logo: logo URL for both themes; empty for none */
                        logo: string;
                        /** @description portal.logo_dark: overrides logo in the dark theme */
                        logo_dark: string;
                        /** @description portal.logo_light: overrides logo in the light theme */
                        logo_light: string;
                        /** @description resources.managed.max_upload_bytes: the upload ceiling per file (spec document 2, Limits). The upload dialog refuses a larger file before sending it; POST /api/v1/resources refuses it (413) all the same */
                        max_upload_bytes: number;
                        /**
                         * @description provider: /portal/auth/login signs in through the identity provider (auth.oidc with auth.browser_session); link: `platform dev` prints a one-time sign-in link on its terminal; none: browser sign-in is not configured (auth.browser_session.enabled)
                         * @enum {string}
                         */
                        sign_in: "provider" | "link" | "none";
                        /** @description portal.title: the sidebar and window title */
                        title: string;
                    };
                };
            };
        };
    };
    viewSharedAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        asset: {
                            content_type: string;
                            description: string;
                            name: string;
                            size: number;
                            updated_at: string;
                            version: number;
                        };
                        /** @description The implementor brand of the viewer header */
                        brand: {
                            /** @description Where the sanitised implementor logo is served, when one is configured and was read at start-up */
                            logo: string | null;
                            /** @description portal.implementor.name */
                            name: string;
                            /** @description portal.implementor.url */
                            url: string;
                        };
                        share: {
                            /** @description When the link stops working; null when it never does or hide_expiration hides it */
                            expires_at: string | null;
                            /** @description The notice to show: the share's own, the built-in confidentiality notice, or null for none */
                            notice: string | null;
                            private: boolean;
                        };
                        /** @enum {string} */
                        state: "open";
                    } | {
                        /** @description The implementor brand of the viewer header */
                        brand: {
                            /** @description Where the sanitised implementor logo is served, when one is configured and was read at start-up */
                            logo: string | null;
                            /** @description portal.implementor.name */
                            name: string;
                            /** @description portal.implementor.url */
                            url: string;
                        };
                        /**
                         * @description How people sign in here (as GET /api/v1/portal/settings says)
                         * @enum {string}
                         */
                        sign_in: "provider" | "link" | "none";
                        /** @description provider: the sign-in address that returns here */
                        sign_in_url: string | null;
                        /**
                         * @description A private share: the person it names signs in to open it
                         * @enum {string}
                         */
                        state: "sign_in";
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    downloadSharedAssetContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    listResources: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description true: only files filed directly in the folder; else everything beneath it. A top-level root (no path, or a library alone) lists no files with true */
                direct?: string;
                /** @description Page size (1-1000, default 100) */
                limit?: number;
                /** @description Folder as <library>/<folder path> (e.g. `global/templates`, `persona:sales`); absent or '' is the unnarrowed listing: every library the caller may list (every library for a platform administrator) */
                path?: string;
                /** @description name (default), name_desc, updated (newest first), updated_asc, size (smallest first), size_desc; platform administrators also last_read (most recently read first, never read last) and last_read_asc (never read first) */
                sort?: "name" | "name_desc" | "updated" | "updated_asc" | "size" | "size_desc" | "last_read" | "last_read_asc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                            allowed_actions: {
                                /** @description Edit details, move to another folder, replace content, restore a version */
                                change: boolean;
                                /** @description Delete (references still need force on manage_resource) */
                                delete: boolean;
                                /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                                edit_source: boolean;
                                /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                                move_targets: string[];
                                /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                                move_to_people: boolean;
                                /** @description Details, download, versions, usage */
                                read: boolean;
                                /** @description Recapture the thumbnail */
                                recapture: boolean;
                                /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                                register: boolean;
                            };
                            /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                            content_sha256: string | null;
                            content_type: string;
                            created_at: string;
                            description: string;
                            display_name: string;
                            file_name: string;
                            /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                            id: string;
                            /** @description Last content read (platform administrators only) */
                            last_read_at?: string | null;
                            /** @description person:<subject>, persona:<name> or global */
                            library: string;
                            /** @description Folder path inside the library; '' at the library root */
                            path: string;
                            /** @description mcp:resource:<id> */
                            reference: string;
                            /**
                             * @description Search setting
                             * @enum {string}
                             */
                            search_setting: "default" | "contents" | "details_only" | "not_indexed";
                            /** @description Bytes of the head version */
                            size: number;
                            tags: string[];
                            /** @description Thumbnail state (GET by id only) */
                            thumbnail?: {
                                drawn_at?: string;
                                /** @description The file version the tile was drawn from, and its moment */
                                drawn_from?: {
                                    at: string;
                                    version: number;
                                };
                                /** @description state failed: why, and which variant */
                                failure?: {
                                    reason: string;
                                    /** @enum {string} */
                                    variant: "light" | "dark" | "image";
                                };
                                /** @enum {string} */
                                icon_reason?: "family" | "too_large";
                                /**
                                 * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                                 * @enum {string}
                                 */
                                state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                                /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                                variants: ("light" | "dark" | "image")[];
                            };
                            updated_at: string;
                            uploader: string;
                            /** @description Canonical mcp:// URI */
                            uri: string;
                            /** @description Head version number */
                            version: number;
                        }[];
                        /** @description Cursor of the next page; null on the last page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    uploadResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description multipart/form-data: every field first, then the file part `file` (a field after it is refused with 400). Text fields refuse control characters (descriptions and change summaries may hold tab and line breaks) and names refuse bidirectional controls: 400 `invalid` */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description Shown under the version when the upload revises an existing file */
                    change_summary?: string;
                    description?: string;
                    /** @description Defaults to the file name without extension */
                    display_name?: string;
                    /**
                     * Format: binary
                     * @description The file, the last part of the form; its file name becomes the resource's file name
                     */
                    file: string;
                    /**
                     * @description What to do when a file of that name is already in that folder: `fail` (default) answers 409; `skip_unchanged` answers `unchanged` when the bytes hash the same, else writes a new version (`revised`); `replace` always writes a new version
                     * @default fail
                     * @enum {string}
                     */
                    if_exists?: "fail" | "skip_unchanged" | "replace";
                    /**
                     * @description Library: `personal` (the caller's own), `persona:<name>`, `global`, or `person:<subject>` (platform administrators)
                     * @default personal
                     */
                    library?: string;
                    /**
                     * @description Folder path inside the library; may be empty (the library root)
                     * @default
                     */
                    path?: string;
                    /**
                     * @description Search setting
                     * @enum {string}
                     */
                    search_setting?: "default" | "contents" | "details_only" | "not_indexed";
                    /** @description Repeat the field once per tag (at most 50 tags of 100 characters each) */
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description The resource as stored, with the outcome of the upload */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /**
                         * @description created (201), revised or unchanged (200)
                         * @enum {string}
                         */
                        outcome: "created" | "revised" | "unchanged";
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        /** @description Registered tables that correct the file: moved to the upload, or to a corrected copy written above it (docs/resources.md, "Table registration") */
                        tables?: {
                            /** @description The corrected copy written above the upload */
                            corrected?: {
                                reference: string;
                                version: number;
                            };
                            table_changes: {
                                change: string;
                                table: string;
                            }[];
                        };
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description The resource as stored, with the outcome of the upload */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /**
                         * @description created (201), revised or unchanged (200)
                         * @enum {string}
                         */
                        outcome: "created" | "revised" | "unchanged";
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        /** @description Registered tables that correct the file: moved to the upload, or to a corrected copy written above it (docs/resources.md, "Table registration") */
                        tables?: {
                            /** @description The corrected copy written above the upload */
                            corrected?: {
                                reference: string;
                                version: number;
                            };
                            table_changes: {
                                change: string;
                                table: string;
                            }[];
                        };
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A managed resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteResource: {
        parameters: {
            query?: {
                /** @description true: delete even when assets or a registered table point at the file (prompts never hold a portal delete) */
                force?: string;
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    updateResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        /** @description Edit details; any subset of the fields. A library and/or folder change moves the file: one URI rewrite, one alias, one audit event. Text fields refuse control characters (a description may hold tab and line breaks), display name and tags also bidirectional controls: 400 `invalid` */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tags added to the current ones (kept where they are if already there); applied to the tags as they are when the edit runs, so a concurrent edit is not lost. Not with `tags` */
                    add_tags?: string[];
                    description?: string;
                    display_name?: string;
                    /** @description Move to this top-level folder (library); combined with `path` it is one move */
                    library?: string;
                    /** @description Move to this folder path inside the (new) library */
                    path?: string;
                    /** @description Tags taken off the current ones (absent ones are ignored); applied like `add_tags`. Not with `tags` */
                    remove_tags?: string[];
                    /**
                     * @description Search setting
                     * @enum {string}
                     */
                    search_setting?: "default" | "contents" | "details_only" | "not_indexed";
                    /** @description The full tag list (replaces the current one; at most 50 tags of 100 characters each) */
                    tags?: string[];
                };
            };
        };
        responses: {
            /** @description A managed resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    downloadResourceContent: {
        parameters: {
            query?: {
                /** @description download (default): a person downloads the file — stamps last read, audited as portal_download. preview: the portal shows it (preview pane, source editor, Parquet viewer) — audited under portal_preview like an image tile, stamps no last read, and is not counted as a download in usage */
                purpose?: "download" | "preview";
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The head version's bytes, with its content type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description One byte range of the head version (Range: bytes=a-b, a- or -n), with Content-Range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description If-None-Match matched the ETag */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The range starts past the end of the file; Content-Range: bytes *\/<size> */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    replaceResourceContent: {
        parameters: {
            query?: {
                /** @description Shown under the new version (raw-body uploads; a form sends it as a field) */
                change_summary?: string;
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        /** @description Either the raw bytes as the request body (any content type but multipart/form-data), or multipart/form-data with an optional `change_summary` field before the file part `file` */
        requestBody: {
            content: {
                "application/octet-stream": {
                    /** @description Shown under the new version */
                    change_summary?: string;
                    /**
                     * Format: binary
                     * @description The new content (the uploaded file name is ignored)
                     */
                    file: string;
                } | string;
                "multipart/form-data": {
                    /** @description Shown under the new version */
                    change_summary?: string;
                    /**
                     * Format: binary
                     * @description The new content (the uploaded file name is ignored)
                     */
                    file: string;
                } | string;
            };
        };
        responses: {
            /** @description The resource with its new head version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        /** @description Registered tables that correct the file: moved to the upload, or to a corrected copy written above it (docs/resources.md, "Table registration") */
                        tables?: {
                            /** @description The corrected copy written above the upload */
                            corrected?: {
                                reference: string;
                                version: number;
                            };
                            table_changes: {
                                change: string;
                                table: string;
                            }[];
                        };
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listResourceMoveTargets: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page (pages the people) */
                cursor?: string;
                /** @description People per page (1-1000, default 100) */
                limit?: number;
                /** @description Only people whose subject contains this text (case-insensitive) */
                q?: string;
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where the caller may move the file (PATCH with `library` accepts exactly these) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Own library, personas and global the file may be moved into (the same on every page) */
                        libraries: string[];
                        /** @description Cursor of the next page of people; null on the last */
                        next_cursor: string | null;
                        /** @description person:<subject> of people the platform has seen, by subject (platform administrators only; else empty) */
                        people: string[];
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    saveResourceSource: {
        parameters: {
            query: {
                /** @description The version the editor opened; a file with a newer head is refused (409) */
                base_version: number;
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        /** @description The editor's text, UTF-8, at most 1048576 bytes; the file keeps its content type */
        requestBody: {
            content: {
                "application/octet-stream": string;
                "text/plain": string;
            };
        };
        responses: {
            /** @description The resource with its new head version, whose change_summary is "edited in the portal" */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        /** @description Registered tables that correct the file: moved to the upload, or to a corrected copy written above it (docs/resources.md, "Table registration") */
                        tables?: {
                            /** @description The corrected copy written above the upload */
                            corrected?: {
                                reference: string;
                                version: number;
                            };
                            table_changes: {
                                change: string;
                                table: string;
                            }[];
                        };
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getResourceTables: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The "Query as a table" panel of a file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description SQL connections with a scratch catalog, where a table can be registered (default first) */
                        connections: {
                            /** @description Used when a registration names no connection */
                            default: boolean;
                            display_name: string;
                            name: string;
                        }[];
                        /** @description The name a registration without table_name gives this caller (the persona prefix added) */
                        default_table_name: string | null;
                        /** @description How the file reads as a table; null: not a CSV, TSV or NDJSON file */
                        format: ("csv" | "tsv" | "ndjson") | null;
                        /** @description Whether POST would be accepted now: authority (allowed_actions.register), a table format and a connection */
                        register: {
                            allowed: boolean;
                            /** @description Why not, when not allowed */
                            reason: string | null;
                        };
                        /** @description Its registered tables, by connection and name; empty: none */
                        tables: {
                            connection: string;
                            /** @description A correction runs in the registerTable workflow */
                            correcting: boolean;
                            /** @description Corrects the file: a later upload with the same problems is corrected as a new version above it */
                            corrects: boolean;
                            /** @description Follows new versions written by exports and extractions */
                            follow: boolean;
                            /** @description The file's current version */
                            head_version: number;
                            /** @description Stays at its version until registered again */
                            pinned: boolean;
                            registered_at: string;
                            registered_by: string;
                            /** @description The fully qualified name */
                            relation: string;
                            /** @description Where it stands, in words */
                            state: string;
                            /**
                             * @description current: registered at the current version; older: at an older version (`version` says which; register again to move it); correcting: its first correction still runs
                             * @enum {string}
                             */
                            status: "current" | "older" | "correcting";
                            /** @description The table name agents query (sql_query on `connection`) */
                            table: string;
                            /** @description The version the table reads; null while its first correction runs */
                            version: number | null;
                        }[];
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    registerResourceTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        /** @description Register the file as a table, as manage_table register does */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The SQL connection (one of the panel's connections); absent: the default */
                    connection?: string;
                    /** @description Save a corrected copy and register: when the file has line breaks in cells, carriage-return-only line ends or non-UTF-8 text, write a corrected version and register that (the table then corrects the file). Registering again without it turns correction off */
                    correct?: boolean;
                    /** @description Follow new versions written by exports and extractions (default true) */
                    follow?: boolean;
                    /** @description Default: a slug of the file name; the persona is always added as a prefix */
                    table_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What registering did, in words */
                        change: string;
                        /** @description The corrected copy written and registered */
                        corrected?: {
                            reference: string;
                            version: number;
                        };
                        /** @description A table registered over the file */
                        table: {
                            connection: string;
                            /** @description A correction runs in the registerTable workflow */
                            correcting: boolean;
                            /** @description Corrects the file: a later upload with the same problems is corrected as a new version above it */
                            corrects: boolean;
                            /** @description Follows new versions written by exports and extractions */
                            follow: boolean;
                            /** @description The file's current version */
                            head_version: number;
                            /** @description Stays at its version until registered again */
                            pinned: boolean;
                            registered_at: string;
                            registered_by: string;
                            /** @description The fully qualified name */
                            relation: string;
                            /** @description Where it stands, in words */
                            state: string;
                            /**
                             * @description current: registered at the current version; older: at an older version (`version` says which; register again to move it); correcting: its first correction still runs
                             * @enum {string}
                             */
                            status: "current" | "older" | "correcting";
                            /** @description The table name agents query (sql_query on `connection`) */
                            table: string;
                            /** @description The version the table reads; null while its first correction runs */
                            version: number | null;
                        };
                        /** @description A large correction runs in this workflow (202); the table moves when it is done */
                        workflow_id?: string;
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What registering did, in words */
                        change: string;
                        /** @description The corrected copy written and registered */
                        corrected?: {
                            reference: string;
                            version: number;
                        };
                        /** @description A table registered over the file */
                        table: {
                            connection: string;
                            /** @description A correction runs in the registerTable workflow */
                            correcting: boolean;
                            /** @description Corrects the file: a later upload with the same problems is corrected as a new version above it */
                            corrects: boolean;
                            /** @description Follows new versions written by exports and extractions */
                            follow: boolean;
                            /** @description The file's current version */
                            head_version: number;
                            /** @description Stays at its version until registered again */
                            pinned: boolean;
                            registered_at: string;
                            registered_by: string;
                            /** @description The fully qualified name */
                            relation: string;
                            /** @description Where it stands, in words */
                            state: string;
                            /**
                             * @description current: registered at the current version; older: at an older version (`version` says which; register again to move it); correcting: its first correction still runs
                             * @enum {string}
                             */
                            status: "current" | "older" | "correcting";
                            /** @description The table name agents query (sql_query on `connection`) */
                            table: string;
                            /** @description The version the table reads; null while its first correction runs */
                            version: number | null;
                        };
                        /** @description A large correction runs in this workflow (202); the table moves when it is done */
                        workflow_id?: string;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description refused: the file fails the checks; the message says how many rows and which columns, and that correct: true saves a corrected copy */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The columns those line breaks are in */
                        columns: string[];
                        /** @description Lines ending in a carriage return only */
                        cr_only_lines: number;
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description Bytes that are not UTF-8 */
                        invalid_utf8_bytes: number;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                        /** @description Rows with a line break inside a cell (NDJSON: records over several lines) */
                        rows: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getResourceThumbnail: {
        parameters: {
            query?: {
                /** @description light or dark for a document; image for SVG, PDF and raster images (light and dark answer it too) */
                variant?: "light" | "dark" | "image";
            };
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    recaptureResourceThumbnail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": null;
            };
        };
        responses: {
            /** @description A resource's thumbnail */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        drawn_at?: string;
                        /** @description The file version the tile was drawn from, and its moment */
                        drawn_from?: {
                            at: string;
                            version: number;
                        };
                        /** @description state failed: why, and which variant */
                        failure?: {
                            reason: string;
                            /** @enum {string} */
                            variant: "light" | "dark" | "image";
                        };
                        /** @enum {string} */
                        icon_reason?: "family" | "too_large";
                        /**
                         * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                         * @enum {string}
                         */
                        state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                        /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                        variants: ("light" | "dark" | "image")[];
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getResourceUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Content reads over the last 30 and 90 days by door, from the audit trail; or, with audit off, that usage is not recorded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Reads per door: resources_read, search_fetch, portal_download, portal_preview */
                        last_30_days: {
                            [key: string]: number;
                        };
                        /** @description Reads per door: resources_read, search_fetch, portal_download, portal_preview */
                        last_90_days: {
                            [key: string]: number;
                        };
                        /** @description Last content read on record (image tiles do not count) */
                        last_read_at: string | null;
                        /** @description The file is at least 30 days old and no content read is on record */
                        never_read: boolean;
                        /** @enum {boolean} */
                        recorded: true;
                        /** @description audit.retention_days: no window reaches further back */
                        retention_days: number;
                    } | {
                        /** @description Why: usage is not recorded while audit is off */
                        message: string;
                        /** @enum {boolean} */
                        recorded: false;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listResourceDependents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What points at the file: counts of assets, prompts and registered tables, and the referencing assets the caller may open */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Assets whose content references the file (all of them, named or not) */
                        assets: number;
                        /** @description Referencing assets the caller may not open: counted, never named */
                        assets_not_shown: number;
                        prompts: number;
                        /** @description Some referencing asset, named or not, carries a live public share link */
                        public_link: boolean;
                        /** @description The referencing assets the caller may open (theirs, shared with them privately, or every one for a platform administrator), newest first */
                        referencing_assets: {
                            /** @description Asset id (its portal page is /portal/assets/<id>) */
                            id: string;
                            name: string;
                            /** @description The asset carries a live public share link */
                            public_link: boolean;
                        }[];
                        tables: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listResourceVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            change_summary: string | null;
                            content_sha256: string | null;
                            content_type: string;
                            created_at: string;
                            /** @description Where the write came from: portal (a person), agent (an MCP tool call), script, export (platform.export), webhook (compaction); null when unknown (written before origins were recorded) */
                            origin: ("portal" | "agent" | "script" | "export" | "webhook") | null;
                            /** @description On a restore: the version whose bytes were copied */
                            restored_from: number | null;
                            size: number;
                            uploader: string;
                            version: number;
                        }[];
                        next_cursor: null;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    restoreResourceVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
                /** @description The version whose bytes become the new head */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A managed resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions, by the rules the routes enforce: a control is offered exactly where the request would be accepted */
                        allowed_actions: {
                            /** @description Edit details, move to another folder, replace content, restore a version */
                            change: boolean;
                            /** @description Delete (references still need force on manage_resource) */
                            delete: boolean;
                            /** @description Open in the source editor and save (PUT /api/v1/resources/{id}/source): change, on a text-family file within the inline preview limit (1048576 bytes) */
                            edit_source: boolean;
                            /** @description Libraries the file may be moved into: own, personas, global (never its current one) */
                            move_targets: string[];
                            /** @description Also person:<subject> of people the platform has seen (platform administrators): GET /api/v1/resources/{id}/move-targets lists them */
                            move_to_people: boolean;
                            /** @description Details, download, versions, usage */
                            read: boolean;
                            /** @description Recapture the thumbnail */
                            recapture: boolean;
                            /** @description Register as a query table (GET /api/v1/resources/{id}/tables says whether the file can be one) */
                            register: boolean;
                        };
                        /** @description SHA-256 of the head version (null for a legacy file with no recorded hash) */
                        content_sha256: string | null;
                        content_type: string;
                        created_at: string;
                        description: string;
                        display_name: string;
                        file_name: string;
                        /** @description Stable id (UUIDv7), unchanged by replace, move and rename */
                        id: string;
                        /** @description Last content read (platform administrators only) */
                        last_read_at?: string | null;
                        /** @description person:<subject>, persona:<name> or global */
                        library: string;
                        /** @description Folder path inside the library; '' at the library root */
                        path: string;
                        /** @description mcp:resource:<id> */
                        reference: string;
                        /**
                         * @description Search setting
                         * @enum {string}
                         */
                        search_setting: "default" | "contents" | "details_only" | "not_indexed";
                        /** @description Bytes of the head version */
                        size: number;
                        tags: string[];
                        /** @description Thumbnail state (GET by id only) */
                        thumbnail?: {
                            drawn_at?: string;
                            /** @description The file version the tile was drawn from, and its moment */
                            drawn_from?: {
                                at: string;
                                version: number;
                            };
                            /** @description state failed: why, and which variant */
                            failure?: {
                                reason: string;
                                /** @enum {string} */
                                variant: "light" | "dark" | "image";
                            };
                            /** @enum {string} */
                            icon_reason?: "family" | "too_large";
                            /**
                             * @description icon: never drawn (family or bound); stale: the old tile shows until the new one lands
                             * @enum {string}
                             */
                            state: "icon" | "none" | "drawing" | "drawn" | "failed" | "stale";
                            /** @description Variants GET …/thumbnail serves now: light and dark for documents, image for the others */
                            variants: ("light" | "dark" | "image")[];
                        };
                        updated_at: string;
                        uploader: string;
                        /** @description Canonical mcp:// URI */
                        uri: string;
                        /** @description Head version number */
                        version: number;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listResourceWriters: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description true: created the file; false: only modified it */
                            created: boolean;
                            display: string;
                            /** @description Subject, MCP session id or script id */
                            id: string;
                            /** @enum {string} */
                            kind: "person" | "agent_session" | "script";
                            last_written_at: string;
                        }[];
                        next_cursor: null;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getResourceFacets: {
        parameters: {
            query?: {
                /** @description Levels beneath `path` to answer, its own entry included (1: its children; at the root, 1 is the libraries); absent: every level (1-9) */
                depth?: number;
                /** @description Subtree as <library>/<folder path> (e.g. `global/templates`, `person:<subject>`); absent or '' is the root of all libraries */
                path?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        folders: {
                            /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Add here: upload into it, create a folder in it */
                                add: boolean;
                                /** @description Delete it when empty (not a top-level folder) */
                                delete: boolean;
                                /** @description Describe it (not a top-level folder) */
                                describe: boolean;
                                /** @description List its files */
                                list: boolean;
                            };
                            /** @description Files filed in this folder or beneath it */
                            count: number;
                            description: string;
                            /** @description Files filed directly in this folder */
                            direct_count: number;
                            /** @description Last file written into, removed from or moved out of anything beneath; null when nothing ever was */
                            last_changed_at: string | null;
                            library: string;
                            /** @description <library>/<folder path>; the library itself when the folder path is '' */
                            path: string;
                        }[];
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    createFolder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Library of the folder; when absent, `path` starts with the library: <library>/<folder path> */
                    library?: string;
                    /** @description Folder path inside `library`, or <library>/<folder path> when `library` is absent */
                    path: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Add here: upload into it, create a folder in it */
                            add: boolean;
                            /** @description Delete it when empty (not a top-level folder) */
                            delete: boolean;
                            /** @description Describe it (not a top-level folder) */
                            describe: boolean;
                            /** @description List its files */
                            list: boolean;
                        };
                        /** @description Canonical library text */
                        library: string;
                        /** @description Folder path inside the library */
                        path: string;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    deleteFolder: {
        parameters: {
            query?: {
                /** @description Library of the folder; when absent, `path` starts with the library: <library>/<folder path> */
                library?: string;
                /** @description Folder path inside `library`, or <library>/<folder path> when `library` is absent */
                path?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Library of the folder; when absent, `path` starts with the library: <library>/<folder path> */
                    library?: string;
                    /** @description Folder path inside `library`, or <library>/<folder path> when `library` is absent */
                    path?: string;
                } | null;
            };
        };
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    setFolderDescription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Folder description (shown in search as the folder entry) */
                    description: string;
                    /** @description Library of the folder; when absent, `path` starts with the library: <library>/<folder path> */
                    library?: string;
                    /** @description Folder path inside `library`, or <library>/<folder path> when `library` is absent */
                    path: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                        allowed_actions: {
                            /** @description Add here: upload into it, create a folder in it */
                            add: boolean;
                            /** @description Delete it when empty (not a top-level folder) */
                            delete: boolean;
                            /** @description Describe it (not a top-level folder) */
                            describe: boolean;
                            /** @description List its files */
                            list: boolean;
                        };
                        description: string;
                        /** @description Canonical library text */
                        library: string;
                        /** @description Folder path inside the library */
                        path: string;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    renameFolder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Library of the folder; when absent, `path` starts with the library: <library>/<folder path> */
                    library?: string;
                    /** @description The folder's new path in the same library (a new name, a new parent, or both); a folder path, without the library */
                    new_path: string;
                    /** @description Folder path inside `library`, or <library>/<folder path> when `library` is absent */
                    path: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stored folders rewritten (the folder and every folder beneath) */
                        folders: number;
                        /** @description Canonical library text */
                        library: string;
                        /** @description Every resource moved (at every depth) */
                        moved: {
                            /** @description The address it left; it still resolves (an alias) */
                            from_uri: string;
                            id: string;
                            /** @description `mcp:resource:<id>`: unchanged by the rename */
                            reference: string;
                            /** @description Its canonical URI now */
                            uri: string;
                        }[];
                        /** @description Its path now */
                        new_path: string;
                        /** @description The folder's old path */
                        path: string;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listTopLevelFolders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description In the order the file manager shows them: My Resources, the personas, Global, then People for platform administrators */
                        folders: ({
                            /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Add here: upload into it, create a folder in it */
                                add: boolean;
                                /** @description Delete it when empty (not a top-level folder) */
                                delete: boolean;
                                /** @description Describe it (not a top-level folder) */
                                describe: boolean;
                                /** @description List its files */
                                list: boolean;
                            };
                            /** @description Files beneath, at every depth */
                            count: number;
                            /** @description The persona's description from the configuration; '' for the others */
                            description: string;
                            /** @description Files filed at the top level itself (the portal's "N files at the top level" row) */
                            direct_count: number;
                            /**
                             * @description My Resources: the caller's own library
                             * @enum {string}
                             */
                            kind: "personal";
                            /** @description Last file written into, removed from or moved out of anything beneath; null when nothing ever was */
                            last_changed_at: string | null;
                            /** @description Library text: person:<subject>, persona:<name> or global */
                            library: string;
                            /** @description What the file manager shows: My Resources, the persona's display name (else its name), Global; a person's email (else subject) */
                            name: string;
                            /** @description The library as `path` of the listing and facets routes take it (percent-encoded where needed) */
                            path: string;
                        } | {
                            /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Add here: upload into it, create a folder in it */
                                add: boolean;
                                /** @description Delete it when empty (not a top-level folder) */
                                delete: boolean;
                                /** @description Describe it (not a top-level folder) */
                                describe: boolean;
                                /** @description List its files */
                                list: boolean;
                            };
                            /** @description Files beneath, at every depth */
                            count: number;
                            /** @description The persona's description from the configuration; '' for the others */
                            description: string;
                            /** @description Files filed at the top level itself (the portal's "N files at the top level" row) */
                            direct_count: number;
                            /**
                             * @description A persona's folder
                             * @enum {string}
                             */
                            kind: "persona";
                            /** @description Last file written into, removed from or moved out of anything beneath; null when nothing ever was */
                            last_changed_at: string | null;
                            /** @description Library text: person:<subject>, persona:<name> or global */
                            library: string;
                            /** @description What the file manager shows: My Resources, the persona's display name (else its name), Global; a person's email (else subject) */
                            name: string;
                            /** @description The library as `path` of the listing and facets routes take it (percent-encoded where needed) */
                            path: string;
                            /** @description The persona's name */
                            persona: string;
                        } | {
                            /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Add here: upload into it, create a folder in it */
                                add: boolean;
                                /** @description Delete it when empty (not a top-level folder) */
                                delete: boolean;
                                /** @description Describe it (not a top-level folder) */
                                describe: boolean;
                                /** @description List its files */
                                list: boolean;
                            };
                            /** @description Files beneath, at every depth */
                            count: number;
                            /** @description The persona's description from the configuration; '' for the others */
                            description: string;
                            /** @description Files filed at the top level itself (the portal's "N files at the top level" row) */
                            direct_count: number;
                            /**
                             * @description Global
                             * @enum {string}
                             */
                            kind: "global";
                            /** @description Last file written into, removed from or moved out of anything beneath; null when nothing ever was */
                            last_changed_at: string | null;
                            /** @description Library text: person:<subject>, persona:<name> or global */
                            library: string;
                            /** @description What the file manager shows: My Resources, the persona's display name (else its name), Global; a person's email (else subject) */
                            name: string;
                            /** @description The library as `path` of the listing and facets routes take it (percent-encoded where needed) */
                            path: string;
                        } | {
                            /** @description Files in their libraries, at every depth */
                            count: number;
                            /**
                             * @description People (platform administrators): GET /api/v1/resources/libraries/people lists its folders when opened
                             * @enum {string}
                             */
                            kind: "people";
                            last_changed_at: string | null;
                            name: string;
                            /** @description People whose personal library holds a file or a folder (the caller aside) */
                            people: number;
                        })[];
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listPeopleFolders: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description People per page (1-1000, default 100) */
                limit?: number;
                /** @description Only people whose subject contains this text (case-insensitive) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description By subject */
                        items: {
                            /** @description The caller's allowed actions in the folder, by the rules the routes enforce */
                            allowed_actions: {
                                /** @description Add here: upload into it, create a folder in it */
                                add: boolean;
                                /** @description Delete it when empty (not a top-level folder) */
                                delete: boolean;
                                /** @description Describe it (not a top-level folder) */
                                describe: boolean;
                                /** @description List its files */
                                list: boolean;
                            };
                            /** @description Files beneath, at every depth */
                            count: number;
                            /** @description The persona's description from the configuration; '' for the others */
                            description: string;
                            /** @description Files filed at the top level itself (the portal's "N files at the top level" row) */
                            direct_count: number;
                            /** @enum {string} */
                            kind: "person";
                            /** @description Last file written into, removed from or moved out of anything beneath; null when nothing ever was */
                            last_changed_at: string | null;
                            /** @description Library text: person:<subject>, persona:<name> or global */
                            library: string;
                            /** @description What the file manager shows: My Resources, the persona's display name (else its name), Global; a person's email (else subject) */
                            name: string;
                            /** @description The library as `path` of the listing and facets routes take it (percent-encoded where needed) */
                            path: string;
                            /** @description The owner's subject */
                            subject: string;
                        }[];
                        /** @description Cursor of the next page; null on the last */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    searchResources: {
        parameters: {
            query: {
                /** @description Hits per page (at most 50) */
                limit?: number;
                /** @description Hits to skip: the previous page’s next_offset */
                offset?: number;
                /** @description The words to look for */
                q: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            content_type?: string;
                            description: string;
                            file_count?: number;
                            file_name?: string;
                            /** @description The resource id, or folder:<library>/<path> */
                            id: string;
                            /**
                             * @description A file, or one entry for a folder whose files are not indexed one by one
                             * @enum {string}
                             */
                            kind: "resource" | "folder";
                            library: string;
                            names?: string[];
                            path: string;
                            reference?: string;
                            score: number;
                            size?: number;
                            /** @description A passage of the matching text */
                            snippet: string;
                            title: string;
                            types?: string[];
                            updated_at?: string;
                            uri?: string;
                            /** @description The portal page (portal.public_base_url), else the canonical URI or <library>/<path> */
                            url: string;
                        }[];
                        next_offset: number | null;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error; some refusals add details (for example the counts of what still points at a file) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Stable error code: not_found, forbidden, conflict, invalid, too_large, unsupported, unauthorized, invalid_request, … */
                        error: string;
                        /** @description What went wrong, naming the rule broken or the colliding file */
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    issueBotCheckChallenge: {
        parameters: {
            query: {
                endpoint: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A bot-check challenge */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description pow: the signed challenge; the answer is "<challenge>:<counter>" (docs/botcheck.md) */
                        challenge?: string;
                        /** @description pow: leading zero bits the SHA-256 of the answer must have */
                        difficulty?: number;
                        /** @description pow: when the challenge can no longer be answered */
                        expires_at?: string;
                        /** @description The request header the answer goes in: X-Bot-Check */
                        header: string;
                        /**
                         * @description What answers the check: pow (solve challenge), a hosted widget (site_key), or none (no header needed)
                         * @enum {string}
                         */
                        provider: "pow" | "hosted_a" | "hosted_b" | "none";
                        /** @description hosted providers: the site key for their widget */
                        site_key?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, rate_limited, unavailable, invalid_request */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, rate_limited, unavailable, invalid_request */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, rate_limited, unavailable, invalid_request */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, rate_limited, unavailable, invalid_request */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    getBotCheckSolver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    sendWebhookEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                source: string;
            };
            cookie?: never;
        };
        /** @description JSON, or a form post with the JSON in field payload */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Events accepted: all of them are in object storage */
                        accepted: number;
                    };
                };
            };
            /** @description Not JSON (or a form post without a JSON payload field), or split does not name an array */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description The request does not authenticate; nothing stored */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description No enabled source of that name (unknown and disabled answer alike) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Body past max_body_bytes, or more events than buffer_limit; nothing stored */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Past the source's rate limit; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Buffer full (Retry-After: 1) or segment not written in time (Retry-After: 5); nothing acknowledged */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    handshakeWebhookSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Source name */
                source: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Default Response */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    sendWebhookEventsWithPathToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The source's secret */
                secret: string;
                /** @description Source name */
                source: string;
            };
            cookie?: never;
        };
        /** @description JSON, or a form post with the JSON in field payload */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Events accepted: all of them are in object storage */
                        accepted: number;
                    };
                };
            };
            /** @description Not JSON (or a form post without a JSON payload field), or split does not name an array */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description The request does not authenticate; nothing stored */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description No enabled source of that name (unknown and disabled answer alike) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Body past max_body_bytes, or more events than buffer_limit; nothing stored */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Past the source's rate limit; Retry-After says when to retry */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Buffer full (Retry-After: 1) or segment not written in time (Retry-After: 5); nothing acknowledged */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed */
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    openMcpStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description Resume a stream after this event */
                "Last-Event-ID"?: string;
                /** @description The protocol version negotiated at initialization (2025-03-26 assumed when absent). */
                "MCP-Protocol-Version"?: string;
                /** @description The session the server assigned in its answer to `initialize`; required on every later request of a stateful session. */
                "Mcp-Session-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description A missing Mcp-Session-Id, or a Last-Event-ID that cannot be replayed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description No valid credential. `WWW-Authenticate: Bearer` names the protected resource metadata (RFC 9728) when an authorization server is configured. */
            401: {
                headers: {
                    /** @description Bearer challenge, with `resource_metadata` when available */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The Origin is not allowed, or the session belongs to another caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The session is unknown or has ended: start a new one with `initialize` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description This server offers no standalone stream (stateless mode without a session store) */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The Accept header does not list text/event-stream */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The session already has a standalone stream */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
        };
    };
    postMcpMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The protocol version negotiated at initialization (2025-03-26 assumed when absent). */
                "MCP-Protocol-Version"?: string;
                /** @description The session the server assigned in its answer to `initialize`; required on every later request of a stateful session. */
                "Mcp-Session-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": ({
                    id?: string | number;
                    /** @constant */
                    jsonrpc: "2.0";
                    method?: string;
                    params?: Record<string, never>;
                } & {
                    [key: string]: unknown;
                }) | ({
                    id?: string | number;
                    /** @constant */
                    jsonrpc: "2.0";
                    method?: string;
                    params?: Record<string, never>;
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description The responses to the requests sent */
            200: {
                headers: {
                    /** @description Set on the answer to `initialize` */
                    "Mcp-Session-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        id?: string | number;
                        /** @constant */
                        jsonrpc: "2.0";
                        method?: string;
                        params?: Record<string, never>;
                    } & {
                        [key: string]: unknown;
                    }) | ({
                        id?: string | number;
                        /** @constant */
                        jsonrpc: "2.0";
                        method?: string;
                        params?: Record<string, never>;
                    } & {
                        [key: string]: unknown;
                    })[];
                    "text/event-stream": string;
                };
            };
            /** @description Notifications or responses accepted; nothing to answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON-RPC, a missing Mcp-Session-Id, or a second `initialize` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description No valid credential. `WWW-Authenticate: Bearer` names the protected resource metadata (RFC 9728) when an authorization server is configured. */
            401: {
                headers: {
                    /** @description Bearer challenge, with `resource_metadata` when available */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The Origin is not allowed, or the session belongs to another caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The session is unknown or has ended: start a new one with `initialize` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The Accept header does not list both application/json and text/event-stream */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The body is larger than server.body_limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
        };
    };
    endMcpSession: {
        parameters: {
            query?: never;
            header: {
                /** @description The protocol version negotiated at initialization (2025-03-26 assumed when absent). */
                "MCP-Protocol-Version"?: string;
                /** @description The session the server assigned in its answer to `initialize`; required on every later request of a stateful session. */
                "Mcp-Session-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A missing Mcp-Session-Id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description No valid credential. `WWW-Authenticate: Bearer` names the protected resource metadata (RFC 9728) when an authorization server is configured. */
            401: {
                headers: {
                    /** @description Bearer challenge, with `resource_metadata` when available */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The Origin is not allowed, or the session belongs to another caller */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
            /** @description The session is unknown or has ended: start a new one with `initialize` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: number;
                            message: string;
                        };
                        id?: string | number | null;
                        /** @constant */
                        jsonrpc: "2.0";
                    };
                };
            };
        };
    };
    downloadPresignedObject: {
        parameters: {
            query?: {
                /** @description Unix time (seconds) after which the URL is refused */
                "X-Objstore-Expires"?: string;
                /** @description GET or PUT: the method the URL was signed for */
                "X-Objstore-Method"?: string;
                /** @description HMAC-SHA256 signature (base64url) */
                "X-Objstore-Signature"?: string;
            };
            header?: never;
            path: {
                /** @description The bucket */
                bucket: string;
                /** @description The objstore connection */
                connection: string;
                /** @description The object key; may contain unencoded slashes (the rest of the path) */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The object's bytes, with its Content-Type, ETag and metadata headers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The requested range (Range: bytes=…) */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description AccessDenied: the URL is tampered with, expired, signed for another method, or names an internal connection */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: string;
                        message?: string;
                    };
                };
            };
            /** @description NoSuchKey or NoSuchBucket */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: string;
                        message?: string;
                    };
                };
            };
        };
    };
    uploadPresignedObject: {
        parameters: {
            query?: {
                /** @description Unix time (seconds) after which the URL is refused */
                "X-Objstore-Expires"?: string;
                /** @description GET or PUT: the method the URL was signed for */
                "X-Objstore-Method"?: string;
                /** @description HMAC-SHA256 signature (base64url) */
                "X-Objstore-Signature"?: string;
            };
            header?: never;
            path: {
                /** @description The bucket */
                bucket: string;
                /** @description The objstore connection */
                connection: string;
                /** @description The object key; may contain unencoded slashes (the rest of the path) */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stored; ETag names the new content */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description AccessDenied: the URL is tampered with, expired, signed for another method, or names an internal connection */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: string;
                        message?: string;
                    };
                };
            };
            /** @description NoSuchKey or NoSuchBucket */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: string;
                        message?: string;
                    };
                };
            };
            /** @description EntityTooLarge: past the connection's max_put_size */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: string;
                        message?: string;
                    };
                };
            };
        };
    };
    finishSignIn: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    startSignIn: {
        parameters: {
            query?: {
                return_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
            /** @description Default Response */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: string;
                        message: string;
                    };
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            [key: string]: boolean;
                        };
                        ready: boolean;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checks: {
                            [key: string]: boolean;
                        };
                        ready: boolean;
                    };
                };
            };
        };
    };
}
