/**
 * The pure rules of assets (shared/assets/rules.ts, svg.ts): the content-type allow-list and what
 * each type's bytes must be, the references an asset's text makes, the share creation body
 * (spec document 1), tokens, and the implementor logo's sanitiser; and which /portal/ addresses
 * are build files (api/portal/app-rules.ts).
 */
import { describe, expect, it } from 'vitest';
import { assetContentType, DEFAULT_NOTICE, referenceCandidates, sanitiseSvg, shownNotice, tokenDigest } from '../../shared/assets/index.js';
import { checkContent, checkSize, isTokenShaped, newShareToken, normaliseShare, normaliseTags } from '../../shared/assets/rules.js';
import { portalFileFor } from '../../api/portal/app-rules.js';

describe('content types and bytes', () => {
  it('takes the allow-list and common aliases, dropping parameters; refuses the rest naming the list', () => {
    expect(assetContentType('text/markdown; charset=utf-8')).toBe('text/markdown');
    expect(assetContentType('Text/X-Markdown')).toBe('text/markdown');
    expect(assetContentType('application/jsx')).toBe('text/jsx');
    expect(() => assetContentType('application/pdf')).toThrow(/not allowed for assets; use one of text\/markdown, text\/html/);
  });

  it('refuses bytes that are not what their type says', () => {
    expect(() => checkContent('application/json', Buffer.from('{"a":'))).toThrow(/not valid JSON/);
    expect(() => checkContent('text/plain', Buffer.from([0x61, 0, 0x62]))).toThrow(/NUL/);
    expect(() => checkContent('text/csv', Buffer.from([0xc3, 0x28]))).toThrow(/not valid UTF-8/);
    expect(() => checkContent('image/svg+xml', Buffer.from('<html/>'))).toThrow(/no <svg>/);
    expect(() => checkContent('image/png', Buffer.from('GIF89a'))).toThrow(/not a PNG/);
    expect(() => checkContent('image/svg+xml', Buffer.from('<svg viewBox="0 0 1 1"/>'))).not.toThrow();
    expect(() => checkSize(11, 10)).toThrow(/11 bytes; assets hold at most 10 bytes \(portal\.max_content_size\)/);
    expect(() => checkSize(10, 10)).not.toThrow();
  });

  it('normalises tags and refuses too many or too long', () => {
    expect(normaliseTags([' a ', 'a', '', 'b'])).toEqual(['a', 'b']);
    expect(() => normaliseTags(Array.from({ length: 21 }, (_, i) => `t${i}`))).toThrow(/at most 20/);
    expect(() => normaliseTags(['x'.repeat(101)])).toThrow(/longer than 100/);
  });
});

describe('references', () => {
  it('finds mcp:resource:<id> references and canonical URIs, distinct, without trailing punctuation', () => {
    const id = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
    const found = referenceCandidates([`See mcp:resource:${id}. Also mcp:resource:${id.toUpperCase()} and (mcp://global/brand/palette.txt), mcp://persona/sales/deck.pptx.`, 'mcp://user/alice/x.md']);
    expect(found.ids).toEqual([id]);
    expect(found.uris).toEqual(['mcp://global/brand/palette.txt', 'mcp://persona/sales/deck.pptx', 'mcp://user/alice/x.md']);
    expect(referenceCandidates(['mcp:resource:not-an-id mcp://elsewhere/x'])).toEqual({ ids: [], uris: [] });
  });
});

describe('the share creation body', () => {
  it('expires_in is a duration of at least 1m and at most 3650d; none means no expiry', () => {
    expect(normaliseShare({}).expiresInMs).toBeNull();
    expect(normaliseShare({ expires_in: '1h30m' }).expiresInMs).toBe(5_400_000);
    expect(() => normaliseShare({ expires_in: '30' })).toThrow(/expires_in: "30" has no unit/);
    expect(() => normaliseShare({ expires_in: '30s' })).toThrow(/at least 1m/);
    expect(() => normaliseShare({ expires_in: '3651d' })).toThrow(/at most 3650d/);
  });

  it('notice_text: null is the built-in notice, "" none, at most 500 characters (counted as characters, not bytes)', () => {
    expect(shownNotice(normaliseShare({ notice_text: null }).noticeText)).toBe(DEFAULT_NOTICE);
    expect(shownNotice(normaliseShare({}).noticeText)).toBe(DEFAULT_NOTICE);
    expect(shownNotice(normaliseShare({ notice_text: '' }).noticeText)).toBeNull();
    expect(normaliseShare({ notice_text: 'é'.repeat(500) }).noticeText).toHaveLength(500);
    expect(() => normaliseShare({ notice_text: 'n'.repeat(501) })).toThrow(/501 characters; a notice holds at most 500/);
  });

  it('a private share names a subject and/or an address (lower-cased)', () => {
    expect(normaliseShare({ shared_with_email: ' Dana@Example.TEST ' }).sharedWithEmail).toBe('dana@example.test');
    expect(() => normaliseShare({ shared_with_email: 'dana' })).toThrow(/not an email address/);
    expect(normaliseShare({ shared_with_user_id: '  ' }).sharedWithUserId).toBeNull();
  });

  it('tokens are 43 base64url characters, distinct, kept as their SHA-256', () => {
    const a = newShareToken();
    expect(isTokenShaped(a)).toBe(true);
    expect(a).not.toBe(newShareToken());
    expect(tokenDigest(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(isTokenShaped('short')).toBe(false);
    expect(isTokenShaped(`${'a'.repeat(42)}/`)).toBe(false);
  });
});

describe('the implementor logo sanitiser', () => {
  it('keeps drawing elements and drops script, handlers, foreign content, outside references and entities', () => {
    const out = sanitiseSvg(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e "x">]><svg viewBox="0 0 10 10" onload="x()"><script>alert(1)</script><style>*{}</style>` +
        `<linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><rect width="10" height="10" fill="url(#g)"/>` +
        `<circle r="2" fill="url(https://evil.example/x)"/><use href="#g"/><use href="https://evil.example/s.svg#a"/><a href="javascript:x()"><path d="M0 0"/></a>` +
        `<foreignObject><div>hi</div></foreignObject><text x="1" y="9">Acme &amp; Co</text></svg>`,
    )!;
    expect(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">')).toBe(true);
    expect(out).toContain('<linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>');
    expect(out).toContain('<rect width="10" height="10" fill="url(#g)"/>');
    expect(out).toContain('<circle r="2"/>');
    expect(out).toContain('<use href="#g"/>');
    expect(out).toContain('<text x="1" y="9">Acme &amp; Co</text>');
    for (const gone of ['script', 'onload', 'style', 'evil.example', 'javascript', 'foreignObject', '<div', 'ENTITY', '<path']) expect(out).not.toContain(gone);
    expect(sanitiseSvg('<html><body>no svg</body></html>')).toBeUndefined();
  });
});

describe('which /portal/ addresses are build files', () => {
  it('a name with an extension under assets/ is a file (missing: 404); the asset pages are the app', () => {
    const has = (name: string) => name === 'assets/main-abc.js';
    expect(portalFileFor('assets/main-abc.js', has)).toEqual({ kind: 'file', name: 'assets/main-abc.js' });
    expect(portalFileFor('assets/gone-123.js', has)).toEqual({ kind: 'missing' });
    expect(portalFileFor('assets/0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b', has)).toEqual({ kind: 'app' });
    expect(portalFileFor('assets/shared', has)).toEqual({ kind: 'app' });
    expect(portalFileFor('assets', has)).toEqual({ kind: 'app' });
  });
});
