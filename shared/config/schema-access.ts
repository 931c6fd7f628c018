/**
 * platform.yaml sections of access, identity and sessions (document 1): sessions, auth,
 * oauth, database and personas (see schema.ts).
 *
 * Keys this implementation adds here (not in the spec; documented in platform.example.yaml)
 * - sessions.max_per_subject   default 64: live MCP sessions one identity may hold; the next
 *                                initialize gets 429 with Retry-After
 * - oauth.refresh_token_ttl     default 30d: how long one sign-in through the OAuth server lasts;
 *                                refreshing rotates the token but never extends this
 * - oauth.dcr.registrations_per_minute  default 30: Dynamic Client Registrations one client
 *                                address may make per minute on one replica (429 past it)
 */

import { z } from 'zod';
import {
  base64Key,
  hmacKey,
  bool,
  dur,
  duration,
  int,
  obj,
  oneOf,
  optHttpUrl,
  optStr,
  regexString,
  str,
  strArray,
  strMap,
} from './schema-fields.js';

// ---------------------------------------------------------------------------
// sessions, auth, oauth, database

export const sessions = obj({
  store: oneOf(['memory', 'database']).default('memory'),
  ttl: duration({ positive: true }).optional(),
  idle_timeout: duration({ positive: true }).optional(),
  cleanup_interval: dur('1m'),
  max_per_subject: int({ min: 1 }).default(64),
});

/** key and name default to '' so consumers get strings; with api_keys.enabled both must be non-empty (rules.ts). */
const apiKey = obj({
  key: str().default(''),
  name: str().default(''),
  roles: strArray().default([]),
});

export const auth = obj({
  allow_anonymous: bool().default(false),
  oidc: obj({
    enabled: bool().default(false),
    issuer: optHttpUrl(),
    client_id: optStr(),
    audience: optStr(),
    role_claim_path: optStr(),
    role_prefix: optStr(),
    clock_skew_seconds: int({ min: 0 }).default(30),
    max_token_age: duration({ positive: true }).optional(),
    client_secret: optStr(),
    scopes: strArray().optional(),
  }).prefault({}),
  api_keys: obj({
    enabled: bool().default(false),
    keys: z.array(apiKey).default([]),
  }).prefault({}),
  browser_session: obj({
    enabled: bool().default(false),
    cookie_name: str().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'expected a cookie name (token characters only)').default('mcp_session'),
    signing_key: base64Key({ min: 32 }),
    ttl: dur('8h'),
    secure: bool().default(true),
    domain: optStr(),
  }).prefault({}),
});

const oauthClient = obj({
  id: str().min(1, 'must not be empty'),
  secret: str().min(1, 'must not be empty'),
  redirect_uris: z.array(str()).min(1, 'at least one redirect URI is required'),
});

export const oauth = obj({
  enabled: bool().default(false),
  issuer: optHttpUrl(),
  /** HMAC key (base64 or raw string, ≥ 32 bytes). Absent: a key is generated at startup and tokens do not survive a restart. */
  signing_key: hmacKey(32),
  refresh_token_ttl: dur('30d'),
  clients: z.array(oauthClient).default([]),
  dcr: obj({
    enabled: bool().default(false),
    allowed_redirect_patterns: z.array(regexString()).default([]),
    registrations_per_minute: int({ min: 1 }).default(30),
  }).prefault({}),
  upstream: obj({
    issuer: optHttpUrl(),
    client_id: optStr(),
    client_secret: optStr(),
    redirect_uri: optHttpUrl(),
  }).prefault({}),
});

export const database = obj({
  dsn: optStr(),
  max_open_conns: int({ min: 1 }).default(25),
});

// ---------------------------------------------------------------------------
// personas

const persona = obj({
  display_name: optStr(),
  description: optStr(),
  roles: strArray().default([]),
  tools: obj({
    // Only an absent allow means every tool; an explicit [] allows nothing (personas/tool-rules.ts).
    allow: strArray().default(['*']),
    deny: strArray().default([]),
  }).prefault({}),
  prompts: obj({
    system_prefix: optStr(),
    system_suffix: optStr(),
    instructions: optStr(),
  }).prefault({}),
  hints: strMap().default({}),
  priority: int().default(0),
});

export const personas = obj({
  definitions: z.record(str(), persona).default({}),
  default_persona: str().default('default'),
  role_mapping: obj({
    oidc_to_persona: strMap().default({}),
    user_personas: strMap().default({}),
  }).prefault({}),
});
