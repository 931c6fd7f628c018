/**
 * Host allow-lists with ports (shared/http/allowed-hosts.ts; scripts.fetch.allow_hosts): a bare
 * host allows its scheme's default port only, `host:port` exactly that port, `host:*` any port;
 * IPv6 literals in brackets; hosts compared in the URL parser's canonical form. Entries that state
 * no rule are refused by the config with the reason.
 */
import { describe, expect, it } from 'vitest';
import { hostAllowed, hostRules, parseHostRule } from '../../shared/http/index.js';
import { parseConfig } from '../../shared/config/index.js';

describe('parseHostRule', () => {
  it.each([
    ['api.example.com', { host: 'api.example.com', port: 'default' }],
    ['API.Example.COM', { host: 'api.example.com', port: 'default' }],
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['127.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['127.0.0.1:*', { host: '127.0.0.1', port: 'any' }],
    ['[::1]', { host: '[::1]', port: 'default' }],
    ['[0:0::1]:8080', { host: '[::1]', port: 8080 }],
    ['[::1]:*', { host: '[::1]', port: 'any' }],
    ['bücher.example', { host: 'xn--bcher-kva.example', port: 'default' }],
  ] as const)('%s', (entry, rule) => {
    expect(parseHostRule(entry)).toEqual(rule);
  });

  it.each([
    ['https://api.example.com', /not a host or host:port/],
    ['api.example.com/x', /not a host or host:port/],
    ['user@api.example.com', /not a host or host:port/],
    ['::1', /IPv6 addresses in brackets/],
    ['::1:8080', /IPv6 addresses in brackets/],
    ['[::1', /\[IPv6\]/],
    ['[::1]8080', /\[IPv6\]/],
    ['*.example.com', /wildcards are not supported/],
    ['*', /wildcards are not supported/],
    [':8080', /names no host/],
    ['example.com:', /port must be 1-65535/],
    ['example.com:0', /port must be 1-65535/],
    ['example.com:65536', /port must be 1-65535/],
    ['example.com:80a', /port must be 1-65535/],
    ['[zz::1]:80', /not a valid host/],
  ])('refuses %s', (entry, problem) => {
    const rule = parseHostRule(entry);
    expect('problem' in rule && rule.problem).toMatch(problem);
  });
});

describe('hostAllowed', () => {
  const rules = hostRules(['api.example.com', '127.0.0.1:8080', 'svc.internal:*', '[::1]:9000']);
  it.each([
    ['https://api.example.com/', true],
    ['http://api.example.com/', true],
    ['https://api.example.com:443/', true],
    ['https://api.example.com:8443/', false],
    ['http://api.example.com:443/', false],
    ['https://api.example.com:80/', false],
    ['http://127.0.0.1:8080/', true],
    ['https://127.0.0.1:8080/', true],
    ['http://127.0.0.1/', false],
    ['http://127.0.0.1:5432/', false],
    ['http://2130706433:8080/', true],
    ['http://0x7f.1:8080/', true],
    ['http://svc.internal:1/', true],
    ['http://svc.internal/', true],
    ['http://[::1]:9000/', true],
    ['http://[0:0:0:0:0:0:0:1]:9000/', true],
    ['http://[::1]:9001/', false],
    ['http://[::1]/', false],
    ['http://localhost:8080/', false],
  ] as const)('%s → %s', (url, allowed) => {
    expect(hostAllowed(new URL(url), rules).allowed).toBe(allowed);
  });

  it('says whether a refused host is listed for other ports', () => {
    expect(hostAllowed(new URL('http://127.0.0.1:1/'), rules)).toEqual({ allowed: false, hostListed: true });
    expect(hostAllowed(new URL('http://127.0.0.2:8080/'), rules)).toEqual({ allowed: false, hostListed: false });
  });
});

describe('scripts.fetch.allow_hosts in the config', () => {
  it('accepts host, host:port, host:* and [IPv6]:port', () => {
    const { config } = parseConfig('scripts:\n  fetch:\n    allow_hosts: [api.example.com, "127.0.0.1:8080", "127.0.0.1:*", "[::1]:8080"]\n', {});
    expect(config.scripts.fetch.allow_hosts).toEqual(['api.example.com', '127.0.0.1:8080', '127.0.0.1:*', '[::1]:8080']);
  });

  it('refuses an entry that states no host rule, naming it and why', () => {
    expect(() => parseConfig('scripts:\n  fetch:\n    allow_hosts: [ok.example, "https://x.example"]\n', {})).toThrow(
      /scripts\.fetch\.allow_hosts\[1\]: "https:\/\/x\.example" is not a host or host:port/,
    );
    expect(() => parseConfig('scripts:\n  fetch:\n    allow_hosts: ["::1"]\n', {})).toThrow(/scripts\.fetch\.allow_hosts\[0\]: .*brackets/);
  });
});
