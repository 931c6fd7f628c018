/**
 * Host allow-lists for outbound requests (`scripts.fetch.allow_hosts`), pure. An entry names one
 * host and which of its ports may be reached, because a host is many services (`127.0.0.1` is
 * every local one):
 *
 *   api.example.com        the scheme's default port only (80 for http, 443 for https)
 *   127.0.0.1:8080         exactly that port (http or https)
 *   127.0.0.1:*            any port, said explicitly
 *   [::1]  [::1]:8080  [::1]:*   IPv6 literals in brackets
 *
 * Hosts compare exactly (no wildcards, no sub-domains) in the URL parser's canonical form: names
 * case-insensitively and IDNs as punycode, IP literals however written (`127.1`, `[0:0::1]`).
 */

export type PortRule = number | 'default' | 'any';

export interface HostRule {
  /** Canonical host as `URL.hostname` gives it (IPv6 in brackets). */
  host: string;
  port: PortRule;
}

const defaultPorts: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** The rule an entry states, or why it states none (the config refuses such entries). */
export function parseHostRule(entry: string): HostRule | { problem: string } {
  if (/[\s/@?#]/.test(entry)) return { problem: `"${entry}" is not a host or host:port (no scheme, path or credentials)` };
  let hostText = entry;
  let portText: string | undefined;
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    const rest = close < 0 ? undefined : entry.slice(close + 1);
    if (rest === undefined || (rest !== '' && !rest.startsWith(':'))) return { problem: `"${entry}" is not [IPv6] or [IPv6]:port` };
    hostText = entry.slice(0, close + 1);
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colons = entry.split(':').length - 1;
    if (colons > 1) return { problem: `"${entry}": write IPv6 addresses in brackets, like [::1] or [::1]:8080` };
    if (colons === 1) [hostText, portText] = entry.split(':') as [string, string];
  }
  if (hostText === '' || hostText.includes('*')) return { problem: `"${entry}" names no host (wildcards are not supported; list each host)` };
  let host: string;
  try {
    host = new URL(`http://${hostText}/`).hostname;
  } catch {
    return { problem: `"${entry}" is not a valid host` };
  }
  if (portText === undefined) return { host, port: 'default' };
  if (portText === '*') return { host, port: 'any' };
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) return { problem: `"${entry}": the port must be 1-65535, or * for any port` };
  return { host, port };
}

/** The entries' rules; entries the config would refuse are skipped (they allow nothing). */
export function hostRules(entries: readonly string[]): HostRule[] {
  return entries.map(parseHostRule).filter((rule): rule is HostRule => !('problem' in rule));
}

/** The port `url` reaches: its own, or its scheme's default. */
function portOf(url: URL): number | undefined {
  return url.port === '' ? defaultPorts[url.protocol] : Number(url.port);
}

function portAllowed(rule: PortRule, url: URL): boolean {
  if (rule === 'any') return true;
  if (rule === 'default') return url.port === '' && defaultPorts[url.protocol] !== undefined;
  return portOf(url) === rule;
}

/**
 * Whether `url`'s host and port are on the list; otherwise `hostListed` says whether the host is
 * listed for other ports (so a refusal can name the entry to add).
 */
export function hostAllowed(url: URL, rules: readonly HostRule[]): { allowed: true } | { allowed: false; hostListed: boolean } {
  const host = url.hostname;
  const same = rules.filter((rule) => rule.host === host);
  return same.some((rule) => portAllowed(rule.port, url)) ? { allowed: true } : { allowed: false, hostListed: same.length > 0 };
}
