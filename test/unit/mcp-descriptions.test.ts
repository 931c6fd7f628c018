import { describe, expect, it } from 'vitest';
import { describeTool, namedTools, withoutUnofferedTools } from '../../shared/mcp-tools/index.js';

describe('namedTools', () => {
  it('finds snake_case tool names as words, and one-word names only in backticks', () => {
    expect(namedTools('Use sql_execute; see catalog_get_* and catalog_search.')).toEqual(['sql_execute', 'catalog_search']);
    expect(namedTools('how search indexes the file; fetch it later')).toEqual([]);
    expect(namedTools('pass the reference to `fetch`')).toEqual(['fetch']);
    expect(namedTools('sql_query_log and xsql_query are not tools')).toEqual([]);
  });
});

describe('withoutUnofferedTools', () => {
  const offered = new Set(['sql_query']);

  it('drops each sentence or line naming a tool that is not offered, and keeps the rest', () => {
    expect(withoutUnofferedTools('Run a query. Statements that change data are refused here: use sql_execute.', offered)).toBe('Run a query.');
    expect(withoutUnofferedTools('For reads use sql_execute. Refused on read-only connections.', offered)).toBe('Refused on read-only connections.');
    expect(withoutUnofferedTools('Actions:\n- read: with sql_query.\n- write: with sql_execute.\nDone.', offered)).toBe('Actions:\n- read: with sql_query.\nDone.');
    expect(withoutUnofferedTools('Intro.\n\nSee catalog_search first.\n\nMore.', offered)).toBe('Intro.\n\nMore.');
  });

  it('leaves a description naming only offered tools untouched', () => {
    expect(withoutUnofferedTools('Read it with sql_query. ', offered)).toBe('Read it with sql_query. ');
  });
});

describe('describeTool', () => {
  it('shows the built-in catalog advice only to a caller offered catalog_search', () => {
    expect(describeTool('sql_query', 'own text', {}, new Set(['sql_query', 'catalog_search']))).toContain('call catalog_search');
    expect(describeTool('sql_query', 'own text', {}, new Set(['sql_query']))).toBe('own text');
    expect(describeTool('sql_query', 'own text', { sql_query: 'configured' }, new Set(['sql_query']))).toBe('configured');
  });
});
