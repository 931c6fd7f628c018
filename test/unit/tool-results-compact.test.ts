/**
 * Issue 10 item 3: tool results that carry JSON text carry it compact — pretty-printing cost the
 * server time and the model tokens, and the parsed value is the same.
 */
import { describe, expect, it } from 'vitest';
import { jsonResult } from '../../shared/mcp-tools/index.js';
import { ObjstoreError, objstoreErrorResult } from '../../shared/objstore/index.js';
import { buildOutput, renderOutput } from '../../shared/sql/format.js';

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content[0]!.text!;

describe('JSON in tool results is compact', () => {
  it('jsonResult', () => {
    const value = { name: 'platform', toolkits: ['platform', 'sql'], features: { audit_logging: false } };
    expect(textOf(jsonResult(value))).toBe('{"name":"platform","toolkits":["platform","sql"],"features":{"audit_logging":false}}');
  });

  it('object-store errors', () => {
    const result = objstoreErrorResult(new ObjstoreError('NoSuchKey', 'no such object', { hint: 'list first' }));
    expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    expect(textOf(result)).not.toMatch(/\n|": /);
  });

  it('sql_query results in the json format', () => {
    const output = buildOutput({ columns: [{ name: 'id', type: 'INTEGER' }], rows: [[1], [2]], truncated: false, limit: 10, durationMs: 3 });
    expect(renderOutput(output, 'json')).toBe(JSON.stringify(output));
    expect(JSON.parse(renderOutput(output, 'json'))).toEqual(output);
  });
});
