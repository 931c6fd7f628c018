/**
 * HTTP to upstreams, shared by the catalog client, the export tools and scripts' platform.fetch:
 * answers read up to a byte limit, redirects followed only where the caller's rule allows, host
 * allow-lists with ports.
 */
export { hostAllowed, hostRules, parseHostRule, type HostRule, type PortRule } from './allowed-hosts.js';
export { cappedChunks, readCappedText } from './capped.js';
export { fetchFollowing, type HttpAnswer, type HttpRequest, type RedirectRule } from './redirects.js';
