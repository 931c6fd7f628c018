import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allowDenyFilter,
  defineTool,
  invokeTool,
  listTools,
  textResult,
  ToolRegistry,
  allowAllTools,
  platformInfoTool,
  ProtocolError,
  type ToolMiddleware,
  type ToolRefusal,
} from '../../shared/mcp-tools/index.js';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';

const echo = defineTool({
  name: 'echo',
  toolkit: 'test',
  description: 'Echo a message',
  input: z.object({ message: z.string(), times: z.number().int().min(1).default(1) }),
  annotations: { readOnlyHint: true },
  async handler(args) {
    return textResult(args.message.repeat(args.times));
  },
});
const boom = defineTool({
  name: 'boom',
  toolkit: 'test',
  description: 'Always fails',
  input: z.object({}),
  async handler() {
    throw new Error('exploded');
  },
});
const sqlQuery = defineTool({ name: 'sql_query', toolkit: 'sql', description: 'builtin', input: z.object({}), handler: async () => textResult('') });

const catalogSearch = defineTool({ name: 'catalog_search', toolkit: 'catalog', description: 'search', input: z.object({}), handler: async () => textResult('') });

function ctx() {
  return { caller: anonymousCaller, signal: new AbortController().signal, log: silentLogger() };
}

describe('tools.allow / tools.deny listing rule', () => {
  it.each([
    { allow: [], deny: [], name: 'sql_query', listed: true },
    { allow: ['sql_*'], deny: [], name: 'sql_query', listed: true },
    { allow: ['sql_*'], deny: [], name: 'catalog_search', listed: false },
    { allow: [], deny: ['*_execute'], name: 'sql_execute', listed: false },
    { allow: ['sql_*'], deny: ['sql_execute'], name: 'sql_execute', listed: false },
    { allow: ['sql_*'], deny: ['sql_execute'], name: 'sql_query', listed: true },
    { allow: ['platform_info'], deny: [], name: 'platform_info', listed: true },
  ])('allow=$allow deny=$deny → $name listed=$listed', ({ allow, deny, name, listed }) => {
    expect(allowDenyFilter(allow, deny)(name)).toBe(listed);
  });
});

describe('listTools', () => {
  const registry = new ToolRegistry().register(echo, boom, sqlQuery);

  it('lists JSON Schema 2020-12 input schemas, annotations and descriptions', () => {
    const tools = listTools(registry, { allow: [], deny: [], descriptionOverrides: {} }, allowAllTools, anonymousCaller);
    const listed = tools.find((t) => t.name === 'echo')!;
    expect(listed.description).toBe('Echo a message');
    expect(listed.annotations).toEqual({ readOnlyHint: true });
    expect(listed.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' }, times: { type: 'integer', default: 1 } },
    });
  });

  it('config description overrides win over built-in ones, which win over the tool text', () => {
    const withCatalog = new ToolRegistry().register(echo, sqlQuery, catalogSearch);
    const plain = listTools(withCatalog, { allow: [], deny: [], descriptionOverrides: {} }, allowAllTools, anonymousCaller);
    expect(plain.find((t) => t.name === 'sql_query')!.description).toContain('catalog_search');
    const configured = listTools(
      withCatalog,
      { allow: [], deny: [], descriptionOverrides: { sql_query: 'ours', echo: 'repeat' } },
      allowAllTools,
      anonymousCaller,
    );
    expect(configured.find((t) => t.name === 'sql_query')!.description).toBe('ours');
    expect(configured.find((t) => t.name === 'echo')!.description).toBe('repeat');
  });

  it('injects icons only for tools that have one', () => {
    const tools = listTools(
      registry,
      { allow: [], deny: [], descriptionOverrides: {}, icons: { echo: { src: 'data:image/svg+xml;base64,AA==', mime_type: 'image/svg+xml' } } },
      allowAllTools,
      anonymousCaller,
    );
    expect(tools.find((t) => t.name === 'echo')!.icons).toEqual([{ src: 'data:image/svg+xml;base64,AA==', mimeType: 'image/svg+xml' }]);
    expect(tools.find((t) => t.name === 'boom')!.icons).toBeUndefined();
  });

  it('applies access rules and hints per caller', () => {
    const tools = listTools(
      registry,
      { allow: [], deny: [], descriptionOverrides: {} },
      { mayUse: (t) => t.name !== 'boom', hint: (t) => (t.name === 'echo' ? 'Prefer short messages.' : undefined) },
      anonymousCaller,
    );
    expect(tools.map((t) => t.name)).toEqual(['echo', 'sql_query']);
    expect(tools[0]!.description).toBe('Echo a message\n\nPrefer short messages.');
  });
});

describe('invokeTool', () => {
  const registry = new ToolRegistry().register(echo, boom);
  const call = (name: string, rawArgs: unknown, middlewares: ToolMiddleware[] = [], access = allowAllTools) =>
    invokeTool({ registry, access, middlewares, name, rawArgs, ctx: ctx() });

  it('runs the handler with parsed arguments and defaults', async () => {
    expect(await call('echo', { message: 'ab', times: 2 })).toEqual(textResult('abab'));
    expect(await call('echo', { message: 'x' })).toEqual(textResult('x'));
  });

  it('refuses an unknown tool with a protocol error -32602 (invalid params)', async () => {
    await expect(call('nope', {})).rejects.toEqual(new ProtocolError(-32602, 'Unknown tool: nope'));
  });

  it('refuses a forbidden tool exactly like an unknown one', async () => {
    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as ProtocolError);
    const forbidden = await refusal(call('echo', { message: 'x' }, [], { mayUse: () => false }));
    const unknown = await refusal(call('nope', {}));
    expect(forbidden).toBeInstanceOf(ProtocolError);
    expect({ code: forbidden?.code, message: forbidden?.message }).toEqual({ code: unknown?.code, message: unknown?.message.replace('nope', 'echo') });
  });

  it('answers invalid arguments with a tool error naming the field', async () => {
    const result = await call('echo', { message: 5 });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^Invalid arguments for echo: message:/);
  });

  it('reports every refusal to onRefused: unavailable tools, and invalid arguments with their message', async () => {
    const refusals: ToolRefusal[] = [];
    const refusedCall = (name: string, rawArgs: unknown, access = allowAllTools) =>
      invokeTool({ registry, access, middlewares: [], name, rawArgs, ctx: ctx(), onRefused: (r) => refusals.push(r) });
    await expect(refusedCall('nope', { a: 1 })).rejects.toBeInstanceOf(ProtocolError);
    await expect(refusedCall('echo', { message: 'x' }, { mayUse: () => false })).rejects.toBeInstanceOf(ProtocolError);
    const invalid = await refusedCall('echo', { message: 5 });
    await refusedCall('echo', { message: 'fine' });
    expect(refusals.map(({ name, rawArgs, tool, reason, message }) => ({ name, rawArgs, tool: tool?.name, reason, message }))).toEqual([
      { name: 'nope', rawArgs: { a: 1 }, tool: undefined, reason: 'unavailable', message: 'Unknown tool: nope' },
      { name: 'echo', rawArgs: { message: 'x' }, tool: 'echo', reason: 'unavailable', message: 'Unknown tool: echo' },
      { name: 'echo', rawArgs: { message: 5 }, tool: 'echo', reason: 'invalid_arguments', message: (invalid.content[0] as { text: string }).text },
    ]);
  });

  it('turns a handler exception into a tool error without a stack', async () => {
    const result = await call('boom', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'boom failed: exploded' }] });
  });

  it('runs middleware in order around the handler, and lets one answer instead', async () => {
    const order: string[] = [];
    const outer: ToolMiddleware = async (_c, next) => {
      order.push('outer-in');
      const r = await next();
      order.push('outer-out');
      return r;
    };
    const inner: ToolMiddleware = async (c, next) => {
      order.push(`inner:${c.tool.name}:${String(c.args.message)}`);
      return next();
    };
    await call('echo', { message: 'm' }, [outer, inner]);
    expect(order).toEqual(['outer-in', 'inner:echo:m', 'outer-out']);
    const stop: ToolMiddleware = async () => textResult('declined');
    expect(await call('echo', { message: 'm' }, [stop])).toEqual(textResult('declined'));
  });
});

describe('platform_info', () => {
  it('reports identity and enabled toolkits', async () => {
    const registry = new ToolRegistry();
    registry.register(
      platformInfoTool({ name: 'acme-data', version: '2.0.0', description: 'Sales data', tags: ['sales'], agent_instructions: 'Use UTC.' }, () =>
        registry.toolkits(),
      ),
      echo,
    );
    const result = await invokeTool({ registry, access: allowAllTools, middlewares: [], name: 'platform_info', rawArgs: {}, ctx: ctx() });
    expect(result.structuredContent).toEqual({
      name: 'acme-data',
      version: '2.0.0',
      description: 'Sales data',
      tags: ['sales'],
      agent_instructions: 'Use UTC.',
      toolkits: ['test'],
    });
  });
});
