/**
 * OAuth errors (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2; RFC 8707 §2). `error` is the registered
 * code, `description` the human text; the spec's own error texts (`Invalid redirect_uri`,
 * `upstream IdP not configured`, `authorization state not found`) are descriptions, and
 * `token_exchange_failed` is an error code of its own.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'token_exchange_failed'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/** HTTP status of each code when answered directly (token and registration endpoints, refused authorizations). */
const statusOf: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  server_error: 500,
  temporarily_unavailable: 503,
  token_exchange_failed: 502,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
};

export class OAuthError extends Error {
  readonly status: number;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.status = statusOf[error];
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** The spec's error texts (document 1, "Errors"). */
export const oauthErrorTexts = {
  invalidRedirectUri: 'Invalid redirect_uri',
  upstreamNotConfigured: 'upstream IdP not configured',
  stateNotFound: 'authorization state not found',
} as const;
