export type { PromptDefinition } from './prompts.js';
export { renderPrompt, PromptArgumentError } from './prompts.js';
export type { CustomResource } from './custom-resources.js';
export { readCustomResource, ResourceNotFoundError } from './custom-resources.js';
export type { TemplatedResourceSource } from './templated-resources.js';
