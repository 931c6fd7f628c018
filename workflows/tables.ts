/**
 * `registerTable` (docs/resources.md, "Table registration"): brings the tables registered over one
 * file to its latest version, correcting it when a table corrects the file; the work too large for
 * a request (a correction above the inline limit) and the follow-ups a request could not finish.
 * Started by the resource job `table` as `table:{resourceId}` with signal-with-start of
 * `reconcile`, so requests for one file coalesce into one run that handles the latest state, once
 * more if signalled meanwhile (in the wider mode when a follow-up signals a run started for an
 * upload). Its one activity (on `{task_queue}-tables`) is idempotent: a pass
 * that finds every table at a clean head does nothing, and a correction written by a pass that
 * failed afterwards is the clean head the retry registers. Deterministic: only
 * @temporalio/workflow, activity types and the job kinds' pure mode rule are imported.
 */
import { defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { ReconcileTablesInput, TableActivities, TableReconcileOutcome } from '../activities/tables.js';
import { widerTableMode } from '../shared/resources/jobs/kinds.js';

/** What a later request tells a run under way (shared/resources/jobs/kinds.ts, kind `table`). */
export interface ReconcileSignal {
  mode?: ReconcileTablesInput['mode'];
}

export const reconcileSignal = defineSignal<[ReconcileSignal?]>('reconcile');

export function tableActivityQueue(taskQueue: string): string {
  return `${taskQueue}-tables`;
}

export type RegisterTableInput = ReconcileTablesInput;

export async function registerTable(input: RegisterTableInput): Promise<TableReconcileOutcome> {
  const { reconcileResourceTables } = proxyActivities<TableActivities>({
    taskQueue: tableActivityQueue(workflowInfo().taskQueue),
    // A correction streams the whole file (up to resources.managed.max_upload_bytes) once.
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: '2 minutes',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 10 },
  });
  let pending = false;
  let mode = input.mode;
  // A later request's mode (absent from signals sent before it was carried): the next pass does what both asked.
  setHandler(reconcileSignal, (request?: ReconcileSignal) => {
    pending = true;
    mode = widerTableMode(mode, request?.mode);
  });
  let outcome: TableReconcileOutcome;
  do {
    pending = false;
    outcome = await reconcileResourceTables({ ...input, mode });
  } while (pending);
  return outcome;
}
