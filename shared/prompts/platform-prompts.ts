/**
 * The prompts that live in configuration and code (spec document 1, server.prompts): the operator's
 * (`server.prompts`, then `tuning.prompts_dir`'s files) and the auto-registered workflow prompts —
 * short starters for the tasks the deployment's toolkits make possible, each registered only when
 * every tool it names is (and offered to a caller only when the caller may call them all). An
 * operator prompt overrides a workflow prompt of the same name. Stored prompts may not take any of
 * these names (store.ts `reservedNames`).
 */
import type { PlatformConfig } from '../config/index.js';
import type { PromptDefinition } from '../mcp-content/index.js';

interface WorkflowPrompt extends PromptDefinition {
  requiresTools: readonly string[];
}

const topic = { name: 'topic', description: 'The subject area, e.g. "customer churn"', required: true };

/** The workflow prompts (names and wording are ours; docs/prompts.md lists them). */
export const WORKFLOW_PROMPTS: readonly WorkflowPrompt[] = [
  {
    name: 'explore-available-data',
    description: 'Find the datasets the catalog knows about a topic',
    content: `Find the data available about {topic}.

Search the catalog (catalog_search) for datasets on this topic, then for the most relevant ones read their schema and documentation (catalog_get_entity, catalog_get_schema). Tell me what each dataset holds, who owns it, how fresh and trustworthy it is, and flag anything deprecated or with known quality problems.`,
    arguments: [topic],
    requiresTools: ['catalog_search', 'catalog_get_schema'],
  },
  {
    name: 'trace-data-lineage',
    description: 'Trace where a dataset comes from and what depends on it',
    content: `Trace the lineage of {dataset}.

Find it in the catalog (catalog_search), then follow its lineage (catalog_get_lineage) upstream to its sources and downstream to what consumes it. Describe each hop and any transformation you can see, and note column-level lineage where the catalog has it.`,
    arguments: [{ name: 'dataset', description: 'A dataset name or URN', required: true }],
    requiresTools: ['catalog_search', 'catalog_get_lineage'],
  },
  {
    name: 'query-with-context',
    description: 'Answer a question with SQL, after finding the right tables',
    content: `Answer this question with data: {question}

First find the tables that hold the answer (catalog_search when the catalog is available, else sql_browse and sql_describe_table). Check the columns, units and filters they need, then query them (sql_query). Show the SQL you ran and explain the result and its caveats.`,
    arguments: [{ name: 'question', description: 'What you want to know', required: true }],
    requiresTools: ['sql_query', 'sql_describe_table'],
  },
  {
    name: 'create-a-report',
    description: 'Analyse a topic with SQL and save the findings as a Markdown report',
    content: `Write a report about {topic}.

Find the relevant tables (catalog_search, sql_describe_table), query them for the key figures and trends (sql_query), and write a Markdown report with tables of the figures, the findings and their caveats. Save it as an asset (save_artifact, content_type text/markdown) and give me its link.`,
    arguments: [topic],
    requiresTools: ['catalog_search', 'sql_query', 'save_artifact'],
  },
];

/**
 * The configuration-and-code prompts of a deployment: the operator's first (server.prompts, then
 * the prompts_dir files), then each workflow prompt whose tools are all registered and whose name no
 * operator prompt took. `registered`: the names of the tools the surface registers.
 */
export function platformPrompts(operator: readonly PromptDefinition[], registered: ReadonlySet<string>): PromptDefinition[] {
  const taken = new Set(operator.map((p) => p.name));
  const workflow = WORKFLOW_PROMPTS.filter((p) => !taken.has(p.name) && p.requiresTools.every((t) => registered.has(t)));
  return [...operator, ...workflow];
}

/** server.prompts as prompt definitions. */
export function configuredPrompts(config: Pick<PlatformConfig, 'server'>): PromptDefinition[] {
  return config.server.prompts.map((p) => ({
    name: p.name,
    content: p.content,
    ...(p.description ? { description: p.description } : {}),
    arguments: p.arguments.map((a) => ({ name: a.name, required: a.required, ...(a.description ? { description: a.description } : {}) })),
  }));
}

/** The names operator prompts and every workflow prompt hold: a stored prompt never takes (or is served under) one. */
export function reservedPromptNames(operator: readonly PromptDefinition[]): Set<string> {
  return new Set([...operator.map((p) => p.name), ...WORKFLOW_PROMPTS.map((p) => p.name)]);
}
