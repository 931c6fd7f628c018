/**
 * Links into the Temporal Web UI (`temporal.ui_url`; `platform dev` sets its dev server's): the
 * workflows of a namespace filtered to one workflow id, which lists its runs newest first (a
 * retried compaction keeps its id) on every UI version that takes a visibility query.
 */
export function temporalWorkflowUrl(uiUrl: string, namespace: string, workflowId: string): string {
  const query = `WorkflowId="${workflowId.replace(/(["\\])/g, '\\$1')}"`;
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
