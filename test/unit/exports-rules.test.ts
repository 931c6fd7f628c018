/**
 * The export tools' pure rules (issue 20 item 5): which paths api_export may request, how a
 * GraphQL answer's errors are found while it streams, how sql_export's Parquet COPY keeps the
 * caller's query inside its parentheses, and how rows are encoded as CSV and NDJSON.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { encodePage, GraphqlAnswerScanner, graphqlErrorMessages, upstreamHeaders, upstreamPathProblem, upstreamUrl, upstreamUrlProblem } from '../../shared/exports/index.js';
import { copySubquery, parquetCopy } from '../../shared/sql/duckdb-copy.js';
import { tokenize } from '../../shared/sql/lexer.js';

const scope = { baseUrl: 'https://api.example.com/v1', allowedPaths: ['/reports', '/public/'] };

describe('api_export paths', () => {
  it('builds URLs under the base path, inside an allowed prefix, on a segment boundary', () => {
    const built = upstreamUrl(scope, '/reports/daily', { day: 'mon', n: 2 });
    expect('url' in built && built.url.href).toBe('https://api.example.com/v1/reports/daily?day=mon&n=2');
    expect('url' in upstreamUrl(scope, '/reports')).toBe(true);
    expect('url' in upstreamUrl(scope, '/public/x')).toBe(true);
    expect(upstreamPathProblem('/reports-secret', scope)).toMatch(/outside the upstream's allowed paths/);
    expect(upstreamPathProblem('/public', scope)).toMatch(/outside/);
  });

  it.each([
    ['http://evil.example/v1/reports', /not a URL/],
    ['//evil.example/reports', /not a URL/],
    ['javascript:alert(1)', /not a URL/],
    ['reports/daily', /must start with \//],
    ['/reports/../admin', /\. or \.\. segments/],
    ['/reports/./daily', /\. or \.\. segments/],
    ['/reports/%2e%2e/admin', /percent-encoded/],
    ['/reports/%2E./admin', /percent-encoded/],
    ['/reports%2Fadmin', /percent-encoded/],
    ['/reports/%5c..%5cadmin', /percent-encoded/],
    ['/reports/%252e%252e/admin', /percent-encoded/],
    ['/reports/a%00b', /percent-encoded/],
    ['/reports\\..\\admin', /backslashes/],
    ['/reports/daily?admin=1', /\?/],
    ['/reports/da ily', /spaces/],
    ['/reports/\u0007', /control/],
    // Java servers drop path parameters, so `..;` resolves as `..`.
    ['/reports/..;/admin', /; \(path parameters\)/],
    ['/reports;x/../admin', /; \(path parameters\)/],
    ['/reports/%2e%2e;/admin', /; \(path parameters\)/],
    ['/reports/..%3b/admin', /percent-encoded/],
    ['/reports/..%3B/admin', /percent-encoded/],
    ['/reports/.%2E/admin', /percent-encoded/],
    ['/reports/%2F../admin', /percent-encoded/],
    ['/reports/%5C../admin', /percent-encoded/],
    ['/reports/%252F../admin', /percent-encoded/],
    ['/reports/%25252e%25252e/admin', /percent-encoded/],
    ['/reports/a%3fb', /percent-encoded/],
    ['/reports/a%23b', /percent-encoded/],
    ['/reports/a%7fb', /percent-encoded/],
    ['/reports/a%1Fb', /percent-encoded/],
    ['/reports/%zz', /malformed/],
    ['/reports/%c0%ae%c0%ae/admin', /malformed or overlong/],
    ['/reports/%e0%80%ae/admin', /malformed or overlong/],
    ['/reports/%ef%bc%8e%ef%bc%8e/admin', /\. or \.\. segments/],
    ['/reports/\uff0e\uff0e/admin', /\. or \.\. segments/],
    ['/reports/%e2%80%a5/admin', /\. or \.\. segments/],
    ['/reports/%ef%bc%8fadmin', /decodes or normalises/],
    ['/reports/\uff3c..\uff3cadmin', /decodes or normalises/],
    ['/reports/%ef%bc%9b/admin', /decodes or normalises/],
    ['/reports//admin', /empty segments/],
    ['/reports/a//b', /empty segments/],
    ['/reports/...', /\. or \.\. segments/],
    ['/reports/..%20/admin', /\. or \.\. segments/],
    ['/reports/%20../admin', /\. or \.\. segments/],
    ['/reports/..%c2%a0/admin', /\. or \.\. segments/],
    ['/%72eports-x', /outside/],
  ])('refuses %s', (path, reason) => {
    expect(upstreamPathProblem(path, scope)).toMatch(reason);
    expect('problem' in upstreamUrl(scope, path)).toBe(true);
  });

  it.each(['/reports/Q1%20sales', '/reports/caf%C3%A9', '/reports/a.b', '/reports/..a/b', '/reports/v1.2/', '/reports/%41', '/reports/a%2Bb'])(
    'still accepts %s',
    (path) => {
      expect(upstreamPathProblem(path, scope)).toBeUndefined();
      expect('url' in upstreamUrl(scope, path)).toBe(true);
    },
  );

  it('checks redirect targets: same origin, under the base path, allowed prefix, no credentials', () => {
    expect(upstreamUrlProblem(new URL('https://api.example.com/v1/reports/x'), scope)).toBeUndefined();
    expect(upstreamUrlProblem(new URL('https://other.example.com/v1/reports/x'), scope)).toMatch(/another host/);
    expect(upstreamUrlProblem(new URL('http://api.example.com/v1/reports/x'), scope)).toMatch(/another host/);
    expect(upstreamUrlProblem(new URL('https://api.example.com:8443/v1/reports/x'), scope)).toMatch(/another host/);
    expect(upstreamUrlProblem(new URL('https://api.example.com/v2/reports'), scope)).toMatch(/base path/);
    expect(upstreamUrlProblem(new URL('https://api.example.com/v1x/reports'), scope)).toMatch(/base path/);
    expect(upstreamUrlProblem(new URL('https://api.example.com/v1/admin'), scope)).toMatch(/allowed paths/);
    expect(upstreamUrlProblem(new URL('https://u:p@api.example.com/v1/reports'), scope)).toMatch(/credentials/);
    expect(upstreamUrlProblem(new URL('https://api.example.com/v1/reports/..;/admin'), scope)).toMatch(/path parameters/);
  });

  it('adds the credential after the configured headers, so a header cannot replace it', () => {
    const headers = upstreamHeaders({ headers: { Authorization: 'Bearer spoofed', 'X-Client': 'c' }, auth: { type: 'bearer', token: 't' } }, { json: {}, accept: 'text/csv' });
    expect(headers.get('authorization')).toBe('Bearer t');
    expect(headers.get('x-client')).toBe('c');
    expect(headers.get('accept')).toBe('text/csv');
    expect(upstreamHeaders({ headers: {}, auth: { type: 'basic', username: 'u', password: 'p' } }, {}).get('authorization')).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(upstreamHeaders({ headers: {}, auth: { type: 'header', name: 'X-Api-Key', value: 'k' } }, {}).get('x-api-key')).toBe('k');
  });
});

describe('GraphQL answers read while they stream', () => {
  const scan = (pieces: string[]) => {
    const s = new GraphqlAnswerScanner();
    for (const p of pieces) s.push(p);
    return s.errors();
  };

  it('finds a top-level errors list wherever the pieces break', () => {
    const text = '{"data":{"a":"errors: not this"},"errors":[{"message":"boom","path":["a"]}]}';
    for (let cut = 0; cut <= text.length; cut++) {
      const found = scan([text.slice(0, cut), text.slice(cut)]);
      expect(found, `cut at ${cut}`).toBe('[{"message":"boom","path":["a"]}]');
    }
    expect(graphqlErrorMessages('[{"message":"boom"},{"message":"again"}]')).toBe('boom; again');
  });

  it('takes null, [] and nested errors keys as no errors', () => {
    expect(scan(['{"data":{"errors":[1]},"errors":null}'])).toBeUndefined();
    expect(scan(['{"errors": [ ], "data": {}}'])).toBeUndefined();
    expect(scan(['{"data":{"x":{"errors":["inner"]}}}'])).toBeUndefined();
    expect(scan(['{"data":{"s":"\\"errors\\":[1]"}}'])).toBeUndefined();
  });

  it('counts an answer that is not a JSON object as an error', () => {
    expect(scan(['<html>bad gateway</html>'])).toMatch(/not a JSON object/);
    expect(scan(['[1,2]'])).toMatch(/not a JSON object/);
  });

  it('keeps only an excerpt of a long errors list', () => {
    const long = `{"errors":[${Array.from({ length: 500 }, (_, i) => `{"message":"m${i}"}`).join(',')}]}`;
    const found = scan([long])!;
    expect(found.length).toBeLessThanOrEqual(2_000);
    expect(graphqlErrorMessages(found).length).toBeLessThanOrEqual(500);
  });
});

describe("sql_export's Parquet COPY", () => {
  const sub = (sql: string) => copySubquery(tokenize(sql, 'duckdb'), sql);

  it('keeps a query whole, dropping trailing semicolons', () => {
    expect(sub('SELECT 1 AS a;; ')).toEqual({ body: 'SELECT 1 AS a' });
    expect(sub("SELECT ')' AS p, \"(\" FROM t -- )")).toEqual({ body: "SELECT ')' AS p, \"(\" FROM t -- )" });
    expect(parquetCopy('SELECT 1 -- c', "/x/it's.parquet")).toBe("COPY (\nSELECT 1 -- c\n) TO '/x/it''s.parquet' (FORMAT PARQUET)");
  });

  it('refuses text that would close the COPY parenthesis or add a statement', () => {
    expect(sub("SELECT 1) TO '/etc/x' (FORMAT CSV) --")).toEqual({ refusal: 'unbalanced parentheses' });
    expect(sub('SELECT (1')).toEqual({ refusal: 'unbalanced parentheses' });
    expect(sub('SELECT 1; SELECT 2')).toEqual({ refusal: 'sql_export runs one statement' });
    expect(sub(' ; ')).toEqual({ refusal: 'no statement to export' });
  });
});

describe('row encodings', () => {
  const rows = [
    [1, 'a,b', true, null, { k: [1] }],
    [2, '=cmd', false, 'x', null],
  ];
  it('CSV: header, quoting, booleans as words, null empty, nested as JSON, formula cells inert', () => {
    expect(encodePage('csv', ['id', 'text', 'flag', 'note', 'obj'], rows, true)).toBe('id,text,flag,note,obj\n1,"a,b",true,,"{""k"":[1]}"\n2,\'=cmd,false,x,\n');
    expect(encodePage('csv', ['id'], [[3]], false)).toBe('3\n');
  });
  it('NDJSON: one object per row keyed by column', () => {
    expect(encodePage('ndjson', ['id', 'text', 'flag', 'note', 'obj'], rows, false)).toBe(
      '{"id":1,"text":"a,b","flag":true,"note":null,"obj":{"k":[1]}}\n{"id":2,"text":"=cmd","flag":false,"note":"x","obj":null}\n',
    );
  });
});

describe('toolkits.api and toolkits.graphql configuration', () => {
  it('takes secrets from the environment and refuses an unknown auth type, a bad header name and a relative allowed path', () => {
    const { config } = parseConfig('toolkits:\n  api:\n    p:\n      base_url: https://x.example/v1\n      auth: { type: basic, username: u, password: "${PW}" }\n', { PW: 'pw' });
    expect(config.toolkits.api.p!.auth).toEqual({ type: 'basic', username: 'u', password: 'pw' });
    const bad = () =>
      parseConfig(
        'toolkits:\n  api:\n    p:\n      base_url: ftp://x\n      auth: { type: token }\n      headers: { "Bad Header": x }\n      allowed_paths: [reports]\n  graphql:\n    g:\n      url: https://g.example\n      auth: { type: bearer }\n',
        {},
      );
    expect(bad).toThrow(/toolkits\.api\.p\.base_url: expected an http\(s\) URL/);
    expect(bad).toThrow(/toolkits\.api\.p\.auth\.type: expected auth\.type bearer, basic or header/);
    expect(bad).toThrow(/toolkits\.api\.p\.headers/);
    expect(bad).toThrow(/toolkits\.api\.p\.allowed_paths\[0\]: expected a path starting with \//);
    expect(bad).toThrow(/toolkits\.graphql\.g\.auth\.token/);
  });
});
