/**
 * Request bodies read before their request authenticated (a REST or OAuth body Fastify parses
 * before the handler checks the credential, an hmac webhook, a public endpoint): anyone can send
 * them, so together they are held within a byte budget per replica, and each must arrive within
 * the body read timeout. A refusal closes the connection: the rest of the body is never read.
 */

/** The bytes of unauthenticated bodies this replica holds at once. Pure bookkeeping. */
export class UnauthenticatedBytes {
  #held = 0;

  constructor(
    readonly max: number,
    /** Told the new total after every change (a gauge). */
    private readonly onChange: (held: number) => void = () => undefined,
  ) {}

  get held(): number {
    return this.#held;
  }

  /** Takes `bytes` if they fit under `max`; false (nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.max) return false;
    this.#held += bytes;
    this.onChange(this.#held);
    return true;
  }

  release(bytes: number): void {
    if (bytes <= 0) return;
    this.#held = Math.max(0, this.#held - bytes);
    this.onChange(this.#held);
  }
}

/** A body refused while it was being read: the status, the error code, the headers of the answer. */
export class BodyRefusal extends Error {
  constructor(
    readonly statusCode: 408 | 503,
    readonly code: 'body_timeout' | 'unauthenticated_bodies_full',
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export function bodyTimeout(timeoutMs: number): BodyRefusal {
  return new BodyRefusal(408, 'body_timeout', `the request body did not arrive within ${timeoutMs / 1000} s (server.body_read_timeout); the connection is closed`);
}

/** 503, not 429: the budget is the replica's, shared by every sender, not one caller's rate. */
export function bodiesFull(max: number): BodyRefusal {
  return new BodyRefusal(
    503,
    'unauthenticated_bodies_full',
    `this server is already receiving ${max} bytes of request bodies from unauthenticated requests (server.unauthenticated_body_bytes); retry shortly`,
    { 'retry-after': '1' },
  );
}
