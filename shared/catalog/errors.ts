/**
 * What a catalog request can fail with. Every message is written for the agent that reads the tool
 * result and never carries the token (the client never puts it anywhere but the Authorization header).
 */

export type CatalogErrorKind = 'http' | 'unauthenticated' | 'graphql' | 'timeout' | 'connection' | 'not_found' | 'unsupported' | 'invalid' | 'cancelled';

export class CatalogError extends Error {
  readonly kind: CatalogErrorKind;
  constructor(kind: CatalogErrorKind, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CatalogError';
    this.kind = kind;
  }
}

/** The catalog answered with a non-2xx HTTP status (401/403 are `unauthenticated`). */
export class CatalogHttpError extends CatalogError {
  readonly status: number;
  constructor(status: number, message: string) {
    super(status === 401 || status === 403 ? 'unauthenticated' : 'http', message);
    this.name = 'CatalogHttpError';
    this.status = status;
  }
}

/** The catalog answered 200 with GraphQL `errors` (a validation failure, a resolver failure). */
export class CatalogGraphQLError extends CatalogError {
  readonly messages: readonly string[];
  constructor(operation: string, messages: readonly string[]) {
    super('graphql', `catalog operation ${operation} failed: ${messages.join('; ')}`);
    this.name = 'CatalogGraphQLError';
    this.messages = messages;
  }
}

export class CatalogTimeoutError extends CatalogError {
  constructor(operation: string, timeoutMs: number) {
    super('timeout', `catalog operation ${operation} timed out after ${timeoutMs} ms`);
    this.name = 'CatalogTimeoutError';
  }
}

export const isCatalogError = (e: unknown): e is CatalogError => e instanceof CatalogError;
