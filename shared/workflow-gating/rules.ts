/** `workflow.*` of spec document 1: steer agents to discovery before they query. */
export interface GatingSettings {
  require_discovery_before_query: boolean;
  discovery_tools: readonly string[];
  query_tools: readonly string[];
  warning_message: string;
  escalation: { after_warnings: number; escalation_message: string };
}

/** Per session: whether a discovery tool ran, and how many query calls went out without one. */
export interface GatingState {
  discovered: boolean;
  undiscoveredQueries: number;
}

/**
 * The notice for a query call, given the state after counting it: none once discovery happened;
 * the standard warning for the first `after_warnings` calls; then the escalation message with
 * `{count}` = the number of query calls made without discovery so far.
 */
export function gatingNotice(state: GatingState, settings: GatingSettings): string | undefined {
  if (state.discovered) return undefined;
  if (state.undiscoveredQueries <= settings.escalation.after_warnings) return settings.warning_message;
  return settings.escalation.escalation_message.replaceAll('{count}', String(state.undiscoveredQueries));
}
