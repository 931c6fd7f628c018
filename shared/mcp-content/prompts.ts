/**
 * A prompt as prompts/list and prompts/get serve it: an operator prompt from `server.prompts` or
 * `tuning.prompts_dir` (spec document 1), a workflow prompt, or a stored one (shared/prompts).
 */
export interface PromptDefinition {
  name: string;
  description?: string;
  content: string;
  arguments: ReadonlyArray<{ name: string; description?: string; required: boolean }>;
  /** A workflow prompt is offered only to callers who may call every one of these tools. */
  requiresTools?: readonly string[];
}

export class PromptArgumentError extends Error {}

/**
 * prompts/get: every `{arg}` placeholder is replaced from the arguments; a required argument
 * that is missing or empty is refused by name. Placeholders of optional arguments the caller
 * left out become empty, and unknown `{words}` stay as written (they may be literal braces).
 */
export function renderPrompt(prompt: PromptDefinition, args: Readonly<Record<string, string>> = {}): string {
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length) {
    throw new PromptArgumentError(
      `prompt ${prompt.name}: missing required argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    );
  }
  const declared = new Set(prompt.arguments.map((a) => a.name));
  return prompt.content.replace(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/g, (whole, name: string) => {
    if (name in args) return args[name] ?? '';
    return declared.has(name) ? '' : whole;
  });
}
