/** A credential found on a request. Authenticators in the chain each claim the kinds they understand. */
export type Credential = { kind: 'bearer'; token: string } | { kind: 'apikey'; key: string };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads `Authorization: Bearer …` and `X-API-Key`; a malformed Authorization header yields a credential that no authenticator accepts. */
export function extractCredentials(headers: Headers): Credential[] {
  const found: Credential[] = [];
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    found.push({ kind: 'bearer', token: match?.[1] ?? '' });
  }
  const apiKey = header(headers, 'x-api-key');
  if (apiKey !== undefined) found.push({ kind: 'apikey', key: apiKey.trim() });
  return found;
}
