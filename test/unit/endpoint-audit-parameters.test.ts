/**
 * An endpoint request's audit parameters are built from a head every request to the endpoint's
 * version shares and a tail of its own (shared/endpoints/records.ts): joined, they must be exactly
 * what redacting the whole parameters object gives, whatever the caller carries.
 */
import { describe, expect, it } from 'vitest';
import { auditRow, parametersJson } from '../../shared/audit/index.js';
import { endpointRequestEntry, type EndpointRequestRecord } from '../../shared/endpoints/index.js';
import { callerView } from '../../shared/endpoints/request.js';
import type { CallerContext } from '../../shared/identity/index.js';

const script = { id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', name: 'lookup', version: 3 };

function record(overrides: Partial<EndpointRequestRecord> = {}): EndpointRequestRecord {
  return {
    endpoint: 'lookup',
    script,
    method: 'GET',
    status: 200,
    authMode: 'public',
    caller: null,
    sessionId: 'endpoint:lookup:1',
    startedAt: Date.UTC(2026, 10, 23),
    durationMs: 3,
    outcome: 'ok',
    ...overrides,
  };
}

/** What the parameters were before: the whole object, redacted by the writer. */
function wholeJson(r: EndpointRequestRecord): string {
  return parametersJson({
    source: 'endpoint',
    event_kind: 'endpoint_request',
    endpoint: r.endpoint,
    script: r.script.name,
    script_id: r.script.id,
    version: r.script.version,
    method: r.method,
    status: r.status,
    auth_mode: r.authMode,
    caller: r.caller ? callerView(r.caller) : null,
  });
}

const rowParameters = (r: EndpointRequestRecord) => auditRow(endpointRequestEntry(r), 0)[7];

describe('endpoint audit parameters', () => {
  const strange: CallerContext = { subject: 'apikey:ci\u0000x', email: `a@b.example?token=s3cret&x=${'y'.repeat(5000)}\uD800`, roles: [], authType: 'apikey' };
  it.each([
    ['an anonymous request', record()],
    ['the same again (its tail kept)', record()],
    ['another method and status', record({ method: 'POST', status: 504, outcome: 'error', error: 'deadline exceeded' })],
    ['a signed-in caller', record({ authMode: 'signed_in', caller: { subject: 'apikey:ci', roles: ['staff'], authType: 'apikey' } })],
    ['a caller whose strings need redaction, cutting and cleaning', record({ authMode: 'signed_in', caller: strange })],
    ['another script object of the same version', record({ script: { ...script } })],
    ['another version of the script', record({ script: { ...script, version: 4 } })],
    ['another endpoint name for the same script object', record({ endpoint: 'renamed' })],
  ])('%s: the row holds what redacting the whole would', (_what, r) => {
    expect(rowParameters(r)).toBe(wholeJson(r));
  });

  it('a script object reused for another endpoint or version is not answered from its earlier head', () => {
    const shared = { ...script };
    expect(JSON.parse(rowParameters(record({ script: shared })))).toMatchObject({ endpoint: 'lookup', version: 3 });
    shared.version = 5;
    expect(JSON.parse(rowParameters(record({ script: shared, endpoint: 'other' })))).toMatchObject({ endpoint: 'other', version: 5 });
  });
});
