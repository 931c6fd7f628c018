import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult, type ToolInvocation, type ToolMiddleware } from '../mcp-tools/index.js';

/**
 * Decides whether a call needs the user's go-ahead; returns the question (a form) or nothing.
 * The SQL toolkit's cost estimation and PII consent are triggers.
 */
export type ElicitationTrigger = (invocation: ToolInvocation) => Promise<ElicitRequestFormParams | undefined>;

/** An accepted form whose `confirm` field is false is still a no. */
function approved(answer: ElicitResult): boolean {
  return answer.action === 'accept' && answer.content?.confirm !== false;
}

export function declinedMessage(tool: string, question: string): string {
  return `The user did not approve running ${tool}, so it was not executed. The question was: "${question}" ` +
    'Ask the user how to proceed, or change the request (for example narrow the query).';
}

/**
 * Asks the client before a tool runs when a trigger says so (spec document 1: elicitation).
 * A client without elicitation support gets the tool run untouched (no-op); a declined or
 * cancelled prompt returns an informational result instead of executing.
 */
export function elicitationMiddleware(triggers: readonly ElicitationTrigger[]): ToolMiddleware {
  return async (invocation, next) => {
    const elicit = invocation.ctx.elicit;
    if (!elicit) return next();
    for (const trigger of triggers) {
      const question = await trigger(invocation);
      if (!question) continue;
      const answer = await elicit(question);
      if (!approved(answer)) return textResult(declinedMessage(invocation.tool.name, question.message));
    }
    return next();
  };
}
