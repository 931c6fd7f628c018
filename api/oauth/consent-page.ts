/**
 * The consent page shown before a dynamically registered client's first authorization in a
 * browser (shared/oauth/consent.ts says why). Plain HTML with no script; it names the client as it
 * registered (escaped: the name is the registrant's text) and the host the person will be sent to,
 * and posts the original request back with a CSRF token. It must never be framed.
 */
import type { FastifyReply } from 'fastify';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ConsentPage {
  serverName: string;
  clientName: string | undefined;
  redirectUri: string;
  /** The authorize parameters to post back, and the CSRF token. */
  fields: Record<string, string>;
}

export function renderConsentPage(page: ConsentPage): string {
  const host = new URL(page.redirectUri).host;
  const client = page.clientName ? `“${escape(page.clientName)}”` : 'An application';
  const hidden = Object.entries(page.fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow access to ${escape(page.serverName)}?</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}code{word-break:break-all}</style></head>
<body><main>
<h1>Allow access to ${escape(page.serverName)}?</h1>
<p>${client} is asking to use ${escape(page.serverName)} as you. After you sign in, you will be sent back to <strong>${escape(host)}</strong>
(<code>${escape(page.redirectUri)}</code>).</p>
<p>Only continue if you started this from an application you trust.</p>
<form method="post" action="/oauth/authorize">
${hidden}
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`;
}

/** Headers of the page: no framing (clickjacking), no caching, no scripts or external resources. */
export function sendConsentPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
