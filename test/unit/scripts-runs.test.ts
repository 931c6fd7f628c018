/** The pure rules of script runs: the fetch allow-list, the console excerpt kept on a run's row, and the principal. */
import { describe, expect, it } from 'vitest';
import { consoleExcerpt, fetchRefusal, runningScript, scriptPrincipal } from '../../shared/scripts/index.js';
import { PLATFORM_HOST_NAMES, PlatformHost, platformHost, type ToolCaller } from '../../shared/scripts/runs/index.js';

describe('fetchRefusal', () => {
  const allow = ['api.example.com', '127.0.0.1:8080', '[::1]:*'];
  it('allows exactly the listed host names, case-insensitively, on the ports each entry allows', () => {
    expect(fetchRefusal(new URL('https://API.example.com/x'), allow)).toBeUndefined();
    expect(fetchRefusal(new URL('http://api.example.com/x'), allow)).toBeUndefined();
    expect(fetchRefusal(new URL('http://127.0.0.1:8080/'), allow)).toBeUndefined();
    expect(fetchRefusal(new URL('http://[::1]:5432/'), allow)).toBeUndefined();
  });
  it('refuses other hosts, sub-domains and non-http schemes, naming the host', () => {
    expect(fetchRefusal(new URL('https://evil.example.com/'), allow)).toMatch(/the host evil\.example\.com is not on scripts\.fetch\.allow_hosts/);
    expect(fetchRefusal(new URL('https://x.api.example.com/'), allow)).toMatch(/x\.api\.example\.com/);
    expect(fetchRefusal(new URL('file:///etc/passwd'), allow)).toMatch(/only http and https/);
  });
  it('a bare host allows only its default port, host:port only that port; the refusal names the entry to add', () => {
    expect(fetchRefusal(new URL('https://api.example.com:8443/'), allow)).toBe(
      "platform.fetch: port 8443 of api.example.com is not on scripts.fetch.allow_hosts (a bare host allows only its scheme's default port; api.example.com:8443 would allow this one)",
    );
    expect(fetchRefusal(new URL('http://api.example.com:443/'), allow)).toMatch(/port 443 of api\.example\.com/);
    expect(fetchRefusal(new URL('http://127.0.0.1:5432/'), allow)).toMatch(/port 5432 of 127\.0\.0\.1 .*127\.0\.0\.1:5432 would allow/);
    expect(fetchRefusal(new URL('http://127.0.0.1/'), allow)).toMatch(/port 80 of 127\.0\.0\.1/);
  });
  it('refuses everything with the default, empty list', () => {
    expect(fetchRefusal(new URL('https://api.example.com/'), [])).toMatch(/not on scripts\.fetch\.allow_hosts/);
  });
});

describe('consoleExcerpt', () => {
  it('keeps short output whole and cuts long output on a character boundary', () => {
    expect(consoleExcerpt('short', 10)).toBe('short');
    expect(consoleExcerpt('aé€', 4)).toBe('aé');
    expect(Buffer.byteLength(consoleExcerpt('x'.repeat(20_000)))).toBe(8 * 1024);
  });
});

describe('scriptPrincipal', () => {
  it("is script:<name> with the author's roles, and names its script", () => {
    const caller = scriptPrincipal({ id: 'id-1', name: 'nightly' }, ['staff']);
    expect(caller).toMatchObject({ subject: 'script:nightly', roles: ['staff'], authType: 'script' });
    expect(runningScript(caller)).toEqual({ id: 'id-1', name: 'nightly' });
    expect(runningScript({ subject: 'apikey:a', roles: [], authType: 'apikey' })).toBeUndefined();
  });
});

describe('PlatformHost', () => {
  const policy = { allowHosts: [], timeoutMs: 1000, maxResponseBytes: 1024 };
  it('names, before making anything, exactly the functions platformHost makes, for handlers and main() runs alike', () => {
    const client: ToolCaller = { callTool: async () => ({ content: [] }) };
    for (const entry of ['handle', 'main'] as const) {
      const host = new PlatformHost(client, policy, entry);
      expect([...host.names]).toEqual(Object.keys(platformHost(client, policy, entry)));
      expect([...host.names]).toEqual([...PLATFORM_HOST_NAMES]);
    }
  });
  it('makes the functions on first use, once, and touches the session only when one is called', async () => {
    let calls = 0;
    const client: ToolCaller = {
      callTool: async (params) => {
        calls++;
        return { content: [{ type: 'text', text: `called ${params.name}` }] };
      },
    };
    const host = new PlatformHost(client, policy, 'handle');
    expect(calls).toBe(0);
    const functions = host.functions();
    expect(host.functions()).toBe(functions);
    expect(await functions.call('platform_info', {})).toBe('called platform_info');
    expect(calls).toBe(1);
    await expect(functions.export({}, {})).rejects.toThrow(/not available inside a handler/);
  });
});
