/** Tools the streaming conformance tests call: one that asks the client a question, one that waits at a gate. */
import { z } from 'zod';
import { defineTool, textResult, toolError } from '../../shared/mcp-tools/index.js';

/** Asks the user a question (elicitation), then reports the answer. */
export const askTool = defineTool({
  name: 'ask_then_answer',
  toolkit: 'platform',
  description: 'Asks the user a question, then reports the answer.',
  input: z.object({}),
  handler: async (_args, ctx) => {
    if (!ctx.elicit) return toolError('the client cannot be asked');
    const answer = await ctx.elicit({ message: 'Continue?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return textResult(`answered ${answer.action}`);
  },
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * `wait_for_gate`: answers "released" once the test opens the gate. `started` resolves when a
 * call waits there; `rearm` closes the gate again for the next test.
 */
export function gatedTool() {
  let gate = deferred();
  let waiting = deferred();
  const tool = defineTool({
    name: 'wait_for_gate',
    toolkit: 'platform',
    description: 'Answers once the test opens the gate.',
    input: z.object({}),
    handler: async () => {
      waiting.resolve();
      await gate.promise;
      return textResult('released');
    },
  });
  return {
    tool,
    started: () => waiting.promise,
    open: () => gate.resolve(),
    rearm: () => {
      gate = deferred();
      waiting = deferred();
    },
  };
}

/** A tools/call request without arguments. */
export const toolCall = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
