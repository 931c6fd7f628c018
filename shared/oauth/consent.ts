/**
 * Consent for dynamically registered clients (MCP security best practices, "confused deputy"):
 * our OAuth server reaches the upstream provider with one static client id, so the provider's own
 * consent ("let the platform in?") says nothing about *which* MCP client will get the code. Before
 * a DCR client's first authorization in a browser we ask the person ourselves, naming the client
 * and where it will be sent, and remember the answer in a signed cookie bound to the client ids
 * approved. Pre-registered clients are the operator's choice and need none.
 *
 * Both values are HMAC-SHA256 under a key derived from the access-token key:
 * - the consent cookie: base64url(JSON {clients, exp}) "." base64url(mac);
 * - the form's CSRF token: mac("csrf:" + browser nonce + ":" + client id), where the nonce lives in
 *   an HttpOnly cookie set with the page — a cross-site form post cannot know the token.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long an approval is remembered in the browser. */
export const consentLifetimeMs = 180 * 24 * 3600_000;
/** Most client ids one consent cookie remembers (the oldest approvals drop out first). */
const maxRemembered = 50;

export class ConsentSeal {
  private readonly key: Buffer;

  constructor(
    accessTokenKey: Uint8Array,
    private readonly clock: () => number = Date.now,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', accessTokenKey, Buffer.alloc(0), 'platform:oauth-consent', 32));
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text, 'utf8').digest('base64url');
  }

  private sameMac(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** The client ids a consent cookie approves (none when it is absent, tampered with or expired). */
  approved(cookie: string | undefined): string[] {
    if (!cookie) return [];
    const [body, mac] = cookie.split('.');
    if (!body || !mac || !this.sameMac(mac, this.mac(body))) return [];
    try {
      const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { clients?: unknown; exp?: unknown };
      if (typeof value.exp !== 'number' || value.exp <= this.clock() || !Array.isArray(value.clients)) return [];
      return value.clients.filter((c): c is string => typeof c === 'string');
    } catch {
      return [];
    }
  }

  /** A consent cookie approving `clientId` in addition to what `previous` approved. */
  approve(previous: string | undefined, clientId: string): string {
    const clients = [...this.approved(previous).filter((c) => c !== clientId), clientId].slice(-maxRemembered);
    const body = Buffer.from(JSON.stringify({ clients, exp: this.clock() + consentLifetimeMs })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** A fresh browser nonce for the consent form's CSRF cookie. */
  static nonce(): string {
    return randomBytes(18).toString('base64url');
  }

  csrfToken(nonce: string, clientId: string): string {
    return this.mac(`csrf:${nonce}:${clientId}`);
  }

  csrfValid(nonce: string | undefined, clientId: string, token: string | undefined): boolean {
    return nonce !== undefined && token !== undefined && this.sameMac(token, this.csrfToken(nonce, clientId));
  }
}
