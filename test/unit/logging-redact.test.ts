import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, isSecretParamName, redactRequestUrl, redactUrlSecrets } from '../../shared/logging/index.js';

describe('isSecretParamName', () => {
  it.each([
    'api_key', 'API_KEY', 'apiKey', 'api-key', 'key', 'access_token', 'token', 'id_token', 'refresh_token', 'secret', 'client_secret',
    'password', 'passwd', 'pwd', 'X-Objstore-Signature', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token',
    'X-Goog-Signature', 'sig', 'SIG', 'code', 'state', 'auth', 'authorization', 'sessionId', 'session_id', 'jwt', 'api%5Fkey', 'access+token',
  ])('%s is secret', (name) => expect(isSecretParamName(name)).toBe(true));

  it.each(['prefix', 'limit', 'X-Objstore-Method', 'X-Objstore-Expires', 'X-Amz-Algorithm', 'X-Amz-Date', 'X-Amz-Expires', 'sv', 'format', 'codec', 'region'])(
    '%s is not secret',
    (name) => expect(isSecretParamName(name)).toBe(false),
  );
});

describe('redactUrlSecrets', () => {
  it.each([
    ['/mcp?api_key=abc', '/mcp?api_key=[redacted]'],
    ['/x?a=1&token=abc&b=2', '/x?a=1&token=[redacted]&b=2'],
    ['/x?a=1;token=abc', '/x?a=1;token=[redacted]'],
    ['https://s3.example.com/b/k?X-Amz-Signature=abc==&X-Amz-Date=20250101', 'https://s3.example.com/b/k?X-Amz-Signature=[redacted]&X-Amz-Date=20250101'],
    ['/login?next=/a?token=abc', '/login?next=/a?token=[redacted]'],
    ['/x?token=', '/x?token=[redacted]'],
    ['fetch https://h/p?sig=abc failed: 403', 'fetch https://h/p?sig=[redacted] failed: 403'],
    ['postgres://app:hunter2@db:5432/x', 'postgres://app:[redacted]@db:5432/x'],
    ['/x?flag&limit=5', '/x?flag&limit=5'],
    ['no url here: a=b', 'no url here: a=b'],
  ])('%s → %s', (input, output) => expect(redactUrlSecrets(input)).toBe(output));
});

describe('redactRequestUrl', () => {
  it('hides the path token of a webhook source', () => {
    expect(redactRequestUrl('/hooks/orders/s3cret')).toBe('/hooks/orders/[redacted]');
    expect(redactRequestUrl('/hooks/orders/s3cret?api_key=k')).toBe('/hooks/orders/[redacted]?api_key=[redacted]');
    expect(redactRequestUrl('/hooks/orders')).toBe('/hooks/orders');
    expect(redactRequestUrl('/api/v1/hooks/orders/x')).toBe('/api/v1/hooks/orders/x');
  });
});

describe('the logger error serializer', () => {
  it('keeps scalar fields, drops nested objects (a client request config with its headers), hides URL secrets', () => {
    const lines: string[] = [];
    const log = createLogger({
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const error = Object.assign(new Error('GET https://trino.example.com/v1/statement?token=tok-123 failed'), {
      code: 'ECONNRESET',
      status: 502,
      config: { url: 'https://trino.example.com', headers: { Authorization: 'Basic dXNlcjpodW50ZXIy' } },
      cause: new Error('upstream said https://u:pw-456@h/'),
    });
    log.error({ err: error }, 'call failed');
    log.warn({ err: { message: 'plain ?secret=sec-789', rows: 3, nested: { password: 'pw' } } }, 'plain object');
    const [first, second] = lines.map((l) => JSON.parse(l) as { err: Record<string, unknown> });
    expect(first!.err).toMatchObject({ type: 'Error', code: 'ECONNRESET', status: 502 });
    expect(first!.err.message).toContain('token=[redacted]');
    expect(first!.err.config).toBeUndefined();
    expect(second!.err).toMatchObject({ message: 'plain ?secret=[redacted]', rows: 3 });
    expect(second!.err.nested).toBeUndefined();
    for (const secret of ['tok-123', 'dXNlcjpodW50ZXIy', 'pw-456', 'sec-789']) expect(lines.join('\n')).not.toContain(secret);
  });
});
