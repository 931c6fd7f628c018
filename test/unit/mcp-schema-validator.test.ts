/**
 * Issue 10 item 3: one JSON-schema validator per process. The SDK builds an Ajv instance for every
 * Server it constructs, that is for every MCP session, unless it is given one; ours is shared,
 * compiles each distinct schema once and stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { parseConfig } from '../../shared/config/index.js';
import { localOperator } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { buildMcpServer } from '../../api/mcp/server.js';
import { SharedJsonSchemaValidator, sessionJsonSchemaValidator } from '../../api/mcp/json-schema-validator.js';

/** A real Ajv validator that counts what it is asked to compile. */
function countingAjv() {
  const counts = { instances: 0, compiled: 0 };
  const create = () => {
    counts.instances++;
    const ajv = new AjvJsonSchemaValidator();
    return {
      getValidator<T>(schema: JsonSchemaType) {
        counts.compiled++;
        return ajv.getValidator<T>(schema);
      },
    };
  };
  return { counts, create };
}

/** The form sql_query's elicitation triggers send, rebuilt for every call as they do. */
const confirmSchema = (): JsonSchemaType => ({
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Run the query', default: true } },
});

describe('the JSON-schema validator of MCP sessions', () => {
  it('every session server validates with the one process-wide validator', () => {
    const surface = buildMcpSurface({ config: parseConfig('', {}).config, log: silentLogger() });
    const servers = [buildMcpServer(surface, { caller: localOperator }), buildMcpServer(surface, { caller: localOperator })];
    // The SDK keeps the option in a private field; reading it is the only way to see which one a server uses.
    for (const server of servers) expect(Reflect.get(server, '_jsonSchemaValidator')).toBe(sessionJsonSchemaValidator);
  });

  it('compiles each distinct schema once and answers as Ajv does', () => {
    const { counts, create } = countingAjv();
    const shared = new SharedJsonSchemaValidator({ create });
    for (let call = 0; call < 10; call++) {
      const validate = shared.getValidator<{ confirm?: boolean }>(confirmSchema());
      expect(validate({ confirm: false })).toEqual({ valid: true, data: { confirm: false }, errorMessage: undefined });
      expect(validate({ confirm: 'yes' })).toMatchObject({ valid: false, errorMessage: 'data/confirm must be boolean' });
    }
    shared.getValidator({ type: 'object', properties: { reason: { type: 'string' } } });
    expect(counts).toEqual({ instances: 1, compiled: 2 });
  });

  it('past maxSchemas distinct schemas it starts over with a fresh instance', () => {
    const { counts, create } = countingAjv();
    const shared = new SharedJsonSchemaValidator({ create, maxSchemas: 3 });
    const schemaNumber = (n: number): JsonSchemaType => ({ type: 'object', properties: { [`field${n}`]: { type: 'number' } } });
    for (let n = 0; n < 3; n++) shared.getValidator(schemaNumber(n));
    expect(counts).toEqual({ instances: 1, compiled: 3 });
    const fourth = shared.getValidator(schemaNumber(3));
    expect(counts).toEqual({ instances: 2, compiled: 4 });
    expect(fourth({ field3: 'x' }).valid).toBe(false);
    shared.getValidator(schemaNumber(0));
    expect(counts).toEqual({ instances: 2, compiled: 5 });
  });
});
