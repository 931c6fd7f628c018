/**
 * The pure parts of an MCP App's document (shared/mcp-apps/document.ts): where `config` goes in
 * whatever shape the entry has, JSON that cannot leave its script element, HTML escaping.
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml, injectConfig, scriptSafeJson } from '../../shared/mcp-apps/index.js';

const element = (json: string) => `<script type="application/json" id="app-config">${json}</script>`;

describe('MCP App config injection', () => {
  it('goes first into <head>, else right after <html>, else after the doctype, else first', () => {
    const config = { a: 1 };
    expect(injectConfig('<!doctype html><html lang="en"><head data-x="a>b"><title>t</title></head></html>', config)).toBe(
      `<!doctype html><html lang="en"><head data-x="a>b">${element('{"a":1}')}<title>t</title></head></html>`,
    );
    expect(injectConfig('<HTML><BODY>x</BODY></HTML>', config)).toBe(`<HTML>${element('{"a":1}')}<BODY>x</BODY></HTML>`);
    expect(injectConfig('<!DOCTYPE html><p>x</p>', config)).toBe(`<!DOCTYPE html>${element('{"a":1}')}<p>x</p>`);
    expect(injectConfig('<p>x</p>', config)).toBe(`${element('{"a":1}')}<p>x</p>`);
  });

  it('writes JSON with no <, >, & or line separators, which parses back to the same values', () => {
    const value = { close: '</script><script>alert(1)</script>', comment: '<!-- x -->', amp: 'a & b', lines: 'a\u2028b\u2029c', n: [1, null, true] };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('escapes text for element content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
