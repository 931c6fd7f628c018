/** A GraphQL operation we send: its operation name (for logs, the test server's faults) and document. */
export interface Operation {
  readonly name: string;
  readonly document: string;
  /** A Query field the operation needs beyond DataHub's base schema (a newer server's feature). */
  readonly requires?: string;
}

/** A document with the fragments it spreads appended (GraphQL refuses unused fragments, so only those). */
export function operation(name: string, body: string, fragments: readonly string[] = [], requires?: string): Operation {
  return { name, document: [body, ...new Set(fragments)].join('\n'), ...(requires ? { requires } : {}) };
}
