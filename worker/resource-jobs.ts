/**
 * The Temporal side of resource jobs (shared/resources/jobs/): starts the workflow a job names,
 * through a client. Coalescing kinds use signal-with-start, so a running workflow is told again and
 * a finished one is followed by a new run (ALLOW_DUPLICATE); the others start once per id, an id
 * already started (or finished) counting as done, a failed one started again.
 *
 * Each start carries where its resource is at that moment, so an operator finds a file's
 * workflows in the Temporal UI: the search attributes `ResourceLibrary` and `ResourcePath` (its
 * folder; '' at the root) and `ResourceName` (its file name), and a memo with the file name and its
 * `mcp://` address. A run under way keeps what it started with (a signal does not change them).
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { SearchAttributeType, defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';
import type { JobStart, JobStarter } from '../shared/resources/index.js';
import { registerKeywordSearchAttributes } from './search-attributes.js';

/** A start that hangs (Temporal unreachable: the SDK retries) ends here, well inside a claim's lease. */
const START_DEADLINE_MS = 10_000;

const resourceLibraryAttribute = defineSearchAttributeKey('ResourceLibrary', SearchAttributeType.KEYWORD);
const resourcePathAttribute = defineSearchAttributeKey('ResourcePath', SearchAttributeType.KEYWORD);
const resourceNameAttribute = defineSearchAttributeKey('ResourceName', SearchAttributeType.KEYWORD);
const resourceAttributeNames = [resourceLibraryAttribute.name, resourcePathAttribute.name, resourceNameAttribute.name];

/** The search attributes and memo of a job's start; none when its resource is gone. */
function resourceJobLabels(labels: JobStart['labels']): { typedSearchAttributes?: SearchAttributePair[]; memo?: Record<string, string> } {
  if (!labels) return {};
  return {
    typedSearchAttributes: [
      { key: resourceLibraryAttribute, value: labels.library },
      { key: resourcePathAttribute, value: labels.folderPath },
      { key: resourceNameAttribute, value: labels.fileName },
    ] as SearchAttributePair[],
    memo: { fileName: labels.fileName, uri: labels.uri },
  };
}

export function temporalJobStarter(client: Pick<Client, 'workflow' | 'connection' | 'options'>, opts: { deadlineMs?: number } = {}): JobStarter {
  const deadlineMs = opts.deadlineMs ?? START_DEADLINE_MS;
  // Added to the namespace once per starter, before its first start that carries them (a failure is tried again at the next start).
  let registered: Promise<void> | undefined;
  const ensureAttributes = () =>
    (registered ??= registerKeywordSearchAttributes(client.connection, client.options.namespace, resourceAttributeNames).catch((error: unknown) => {
      registered = undefined;
      throw error;
    }));
  return {
    async start(job) {
      const { workflowType, workflowId, taskQueue, args, signal, signalArgs } = job;
      const labels = resourceJobLabels(job.labels);
      await client.connection.withDeadline(Date.now() + deadlineMs, async () => {
        if (labels.typedSearchAttributes) await ensureAttributes();
        if (signal) {
          await client.workflow.signalWithStart(workflowType, {
            workflowId,
            taskQueue,
            args,
            signal,
            signalArgs: signalArgs ?? [],
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
            ...labels,
          });
          return;
        }
        try {
          await client.workflow.start(workflowType, { workflowId, taskQueue, args, workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY, ...labels });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      });
    },
  };
}
