/**
 * platform.yaml sections that shape what MCP clients see and how tool calls run (document 1):
 * tools, elicitation, icons, tuning, workflow, knowledge and mcpapps (see schema.ts).
 */

import { z } from 'zod';
import { BUILTIN_WORKFLOW_ESCALATION, BUILTIN_WORKFLOW_WARNING } from './builtins.js';
import { bool, float, int, namedMap, obj, optStr, str, strArray, strMap } from './schema-fields.js';

// ---------------------------------------------------------------------------
// tools, elicitation, icons

export const tools = obj({
  allow: strArray().default([]),
  deny: strArray().default([]),
  description_overrides: strMap().default({}),
});

export const elicitation = obj({
  enabled: bool().default(false),
  cost_estimation: obj({
    enabled: bool().default(false),
    row_threshold: int({ min: 0 }).default(1_000_000),
  }).prefault({}),
  pii_consent: obj({
    enabled: bool().default(false),
  }).prefault({}),
});

const icon = obj({
  src: str().refine((v) => v.startsWith('https://') || v.startsWith('data:'), 'expected an https:// URL or a data: URI'),
  mime_type: optStr(),
});
const iconMap = () => z.record(str(), icon).default({});

export const icons = obj({
  enabled: bool().default(false),
  tools: iconMap(),
  resources: iconMap(),
  prompts: iconMap(),
});

// ---------------------------------------------------------------------------
// tuning, workflow, knowledge, mcpapps

export const tuning = obj({
  rules: obj({
    require_datahub_check: bool().default(false),
    warn_on_deprecated: bool().default(false),
    quality_threshold: float({ min: 0, max: 1 }).default(0.7),
  }).prefault({}),
  prompts_dir: optStr(),
});

export const workflow = obj({
  require_discovery_before_query: bool().default(false),
  /** Glob patterns of tool names; "all catalog_* tools" by default. */
  discovery_tools: strArray().default(['catalog_*']),
  query_tools: strArray().default(['sql_query', 'sql_execute']),
  warning_message: str().default(BUILTIN_WORKFLOW_WARNING),
  escalation: obj({
    after_warnings: int({ min: 0 }).default(3),
    escalation_message: str().default(BUILTIN_WORKFLOW_ESCALATION),
  }).prefault({}),
});

export const knowledge = obj({
  enabled: bool().default(false),
  apply: obj({
    enabled: bool().default(false),
    datahub_connection: optStr(),
    require_confirmation: bool().default(false),
  }).prefault({}),
});

const mcpApp = obj({
  enabled: bool().default(true),
  assets_path: optStr(),
  entry_point: str().min(1, 'must not be empty').default('index.html'),
  /** Default ui://<name>, resolved after parsing. */
  resource_uri: optStr(),
  tools: strArray().optional(),
  csp: obj({
    resource_domains: strArray().optional(),
    connect_domains: strArray().optional(),
  }).optional(),
  config: z.record(z.string(), z.unknown(), { error: 'expected a mapping' }).optional(),
});

export const mcpapps = obj({
  enabled: bool().default(true),
  apps: namedMap(mcpApp).default({}),
});
