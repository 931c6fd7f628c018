/**
 * Issue 41, item 3: a result's rows are serialised once. sql_query remembers the rows' JSON it wrote
 * into its text, and the transports splice that text into structuredContent (messageJson) — the
 * answer must stay byte for byte what JSON.stringify gives, and nothing a caller sends can pose as
 * a remembered value.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { messageJson, rememberJsonText } from '../../shared/mcp-tools/index.js';
import { buildOutput, renderOutput } from '../../shared/sql/format.js';

const rows = [
  [1, 'quote " backslash \\ newline \n', null],
  [2, 'nul \u0000 and \u2028 and emoji 😀 and lone \ud800', { nested: ['a', 1.5, true] }],
  [3, `json-text:${'0'.repeat(32)}`, []],
];

function sqlAnswer() {
  const output = buildOutput({ columns: [{ name: 'id', type: 'INTEGER' }, { name: 'v', type: 'VARCHAR' }, { name: 'x', type: 'JSON' }], rows, truncated: false, limit: 10, durationMs: 3 });
  return { output, result: { content: [{ type: 'text' as const, text: renderOutput(output, 'json') }], structuredContent: output } };
}

describe('issue 41: a result serialised once (messageJson)', () => {
  it('the json text of sql_query is exactly JSON.stringify of its structured result', () => {
    const { output, result } = sqlAnswer();
    expect(result.content[0]!.text).toBe(JSON.stringify(output));
  });

  it('a response spliced after the SDK validated the result is byte for byte JSON.stringify of it', () => {
    const { output, result } = sqlAnswer();
    // The SDK's server validates tool results with this schema and sends what it returns: the
    // structured object is copied, its rows array kept (which is what the splice recognises).
    const validated = CallToolResultSchema.parse(result);
    expect(validated.structuredContent).not.toBe(output);
    expect(validated.structuredContent!.rows).toBe(output.rows);
    const message = { result: validated, jsonrpc: '2.0', id: 7 };
    expect(messageJson(message)).toBe(JSON.stringify(message));
    // Enrichment merges its blocks into a copy of structuredContent: the rows still splice.
    const merged = { ...message, result: { ...validated, structuredContent: { ...validated.structuredContent, catalog_context: { table: 't"' } } } };
    expect(messageJson(merged)).toBe(JSON.stringify(merged));
  });

  it('uses the remembered text, and only for the value it was remembered for', () => {
    const value = [{ a: 1 }];
    rememberJsonText(value, '[{"a":1}]');
    const message = { result: { structuredContent: { rows: value, other: [{ a: 1 }] } } };
    expect(messageJson(message)).toBe('{"result":{"structuredContent":{"rows":[{"a":1}],"other":[{"a":1}]}}}');
    // What the transport writes is the remembered text itself (not a new serialisation of the value).
    rememberJsonText(value, '[{"a":1} ]');
    expect(messageJson(message)).toContain('"rows":[{"a":1} ]');
  });

  it('a caller value shaped like the splice marker is written as itself', () => {
    const { result } = sqlAnswer();
    const message = { result: { ...result, structuredContent: { ...result.structuredContent, note: `json-text:${'0'.repeat(32)}` } }, jsonrpc: '2.0', id: 1 };
    const json = messageJson(message);
    expect(json).toBe(JSON.stringify(message));
    expect(JSON.parse(json)).toStrictEqual(JSON.parse(JSON.stringify(message)));
  });

  it('messages without remembered values are plain JSON.stringify', () => {
    for (const message of [{ jsonrpc: '2.0', id: 1, result: { tools: [] } }, [{ jsonrpc: '2.0', id: 2, result: {} }], { jsonrpc: '2.0', method: 'notifications/progress' }, null]) {
      expect(messageJson(message)).toBe(JSON.stringify(message));
    }
  });
});
