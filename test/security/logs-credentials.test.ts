/**
 * Issue 9, item 7 (logs keep no credentials): request log lines of every Fastify listener — the
 * api and the separate metrics listener — hide secret query parameters (API keys, tokens,
 * presigned-URL signatures and credentials), webhook path tokens and URL passwords, as they
 * already hid headers. A real api on loopback, logging through the production logger into a
 * captured stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../shared/metrics/index.js';
import { startMetricsListener } from '../../api/http/app.js';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { capturingLogger } from '../support/logs.js';

const SECRET = 'S3CR3T-do-not-log';

/** Paths with their query strings exactly as an attacker or a careless client would send them. */
const leakyPaths = [
  `/mcp?api_key=${SECRET}`,
  `/mcp?API_KEY=${SECRET}&x=1`,
  `/mcp?access_token=${SECRET}`,
  `/mcp?token=${SECRET}`,
  `/mcp?apiKey=${SECRET}`,
  `/mcp?password=${SECRET}`,
  `/mcp?client_secret=${SECRET}`,
  `/objstore/local/bucket/report.csv?X-Objstore-Method=GET&X-Objstore-Expires=9999999999&X-Objstore-Signature=${SECRET}`,
  `/objstore/local/bucket/report.csv?x-objstore-signature=${SECRET}`,
  `/data.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${SECRET}%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${SECRET}&X-Amz-Signature=${SECRET}`,
  `/blob?sv=2022-11-02&sig=${SECRET}`,
  `/oauth/callback?code=${SECRET}&state=${SECRET}`,
  `/mcp?api%5Fkey=${SECRET}`,
  `/mcp;api_key=${SECRET}`,
  `/hooks/orders/${SECRET}`,
];

describe('issue 9 item 7: request logs keep no credentials', () => {
  const { log, lines } = capturingLogger();
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml()), log });
  });
  afterAll(async () => api?.stop());

  it.each(leakyPaths)('the api logs %s without the secret', async (path) => {
    const before = lines.length;
    await fetch(`${api.url}${path}`);
    await expect.poll(() => lines.slice(before).some((l) => l.includes('"request completed"'))).toBe(true);
    const written = lines.slice(before);
    // The request was logged, with its path and a marker where the secret was.
    expect(written.some((l) => l.includes('"request completed"') && l.includes('[redacted]'))).toBe(true);
    for (const line of written) expect(line).not.toContain(SECRET);
  });

  it('keeps what is not a credential readable', async () => {
    const before = lines.length;
    await fetch(`${api.url}/objstore/local/bucket/report.csv?X-Objstore-Method=GET&X-Objstore-Expires=9999999999&prefix=q3`);
    await expect.poll(() => lines.slice(before).some((l) => l.includes('"request completed"'))).toBe(true);
    const access = lines.slice(before).map((l) => JSON.parse(l) as { msg: string; req?: { url: string } }).find((l) => l.msg === 'request completed');
    expect(access?.req?.url).toBe('/objstore/local/bucket/report.csv?X-Objstore-Method=GET&X-Objstore-Expires=9999999999&prefix=q3');
  });

  it('the metrics listener logs through the same redaction', async () => {
    const metrics = await startMetricsListener(createMetrics({ defaultMetrics: false }), '127.0.0.1:0', log);
    try {
      const before = lines.length;
      const res = await fetch(`${metrics.url}/metrics?access_token=${SECRET}`);
      expect(res.status).toBe(200);
      await expect.poll(() => lines.slice(before).some((l) => l.includes('"request completed"'))).toBe(true);
      const written = lines.slice(before);
      expect(written.some((l) => l.includes('"listener":"metrics"') && l.includes('access_token=[redacted]'))).toBe(true);
      for (const line of written) expect(line).not.toContain(SECRET);
    } finally {
      await metrics.close();
    }
  });
});
