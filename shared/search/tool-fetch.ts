/**
 * The `fetch` agent tool (spec document 2, "Reading"; issue 18 item 5): the document behind an id
 * that `search` returned — the `mcp:resource:<id>` reference, or the bare id or address. The shape
 * AI clients use for connectors: a JSON document `{id, title, text?, url, metadata}` as the first
 * text content (and as structured content), plus, by type:
 *  - text: the text inline (`text`);
 *  - PDF: its extracted text (`text`);
 *  - office document: its XML parts (`text`, each part under an `<!-- part: name -->` line; `parts` names them);
 *  - image: the picture, as MCP image content;
 *  - anything else: the bytes, as an embedded resource with a base64 blob.
 * A file over 1 MB answers the document without contents and a link to its URI (read it with
 * resources/read), opening nothing. Authority is the by-id rule (authority.ts `dereference`: a
 * platform administrator may dereference any named file); reads go through the `search_fetch`
 * door, which stamps last read and is audited, so they count as search in usage. A PDF waits in
 * its caller's own turn; one refused because too many wait answers a tool error saying to try again.
 */
import { z } from 'zod';
import type { CallerContext } from '../identity/index.js';
import { defineTool, toolError, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { isTextContent, readAll } from '../objstore/index.js';
import { PdfReaderBusy } from '../pdf/index.js';
import { resourceRefusal, type ResourceActor, type ResourceService, type ResourceView } from '../resources/index.js';
import { extractKind, extractText, isOfficeFormat, mediaType, officeParts } from './extract/index.js';

/** Spec limit: fetch returns bytes inline up to 1 MB. */
export const FETCH_INLINE_BYTES = 1024 * 1024;
/** Characters of extracted PDF text or office XML one fetch answers (the inline bound, in characters). */
const maxChars = FETCH_INLINE_BYTES;

/** Images answered as the picture: the raster types MCP clients display. */
const pictureTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

export interface FetchToolOptions {
  /** The actor of a call: the caller as an agent, its session the writer. */
  actorOf: (caller: CallerContext, sessionId?: string) => ResourceActor;
  /** Inline bound in bytes (default 1 MB, the spec's); tests lower it. */
  inlineBytes?: number;
}

const input = z.object({
  id: z.string().min(1).describe('What search returned: the `mcp:resource:<id>` reference (the bare id, the result\'s url or the mcp:// address also work).'),
});

/** A portal page of a resource, as search results link to it under portal.public_base_url (lexical.ts hitUrl). */
const portalPage = /^https?:\/\/[^/]+(?:\/[^?#]*)?\/portal\/resources\/([^/?#]+)$/;

/** What the service resolves: a portal page's URL names the resource by its id; anything else is taken as it is. */
export function fetchTarget(id: string): string {
  const text = id.trim();
  const page = portalPage.exec(text);
  if (!page) return text;
  try {
    return decodeURIComponent(page[1]!);
  } catch {
    return text;
  }
}

const description = `Fetch a managed resource that \`search\` found, by its id (mcp:resource:<id>).
Returns a JSON document {id, title, text, url, metadata}: text files as text, a PDF as its extracted text, an office document (docx, xlsx, pptx, OpenDocument) as its XML parts; an image comes back as the picture and any other file as base64 bytes. A file over 1 MB returns its details and URI only: read it with MCP resources/read.`;

interface FetchedDocument extends Record<string, unknown> {
  id: string;
  title: string;
  url: string;
  metadata: ResourceView;
  text?: string;
}

function documentOf(resource: ResourceView, extra: Record<string, unknown> = {}): FetchedDocument {
  return { id: resource.reference, title: resource.display_name, url: resource.uri, metadata: resource, ...extra };
}

function answer(doc: FetchedDocument, more: CallToolResult['content'] = []): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(doc) }, ...more], structuredContent: doc };
}

function omitted(resource: ResourceView, why: string): CallToolResult {
  return answer(documentOf(resource, { content_omitted: why }), [
    { type: 'resource_link', uri: resource.uri, name: resource.file_name, title: resource.display_name, mimeType: resource.content_type, size: resource.size },
  ]);
}

/** The answer for the bytes of a file, by what they are. */
async function contentsOf(resource: ResourceView, bytes: Buffer, caller: string): Promise<CallToolResult> {
  const kind = extractKind(resource.content_type, resource.file_name);
  if (kind === 'text' && isTextContent(resource.content_type, bytes)) return answer(documentOf(resource, { text: bytes.toString('utf8') }));
  if (kind === 'pdf') {
    const text = await extractText(bytes, resource.content_type, resource.file_name, maxChars, caller);
    if (text !== undefined) return answer(documentOf(resource, { text }));
  }
  if (isOfficeFormat(kind)) {
    const office = await officeParts(bytes, resource.content_type, resource.file_name, maxChars);
    if (office.parts) {
      const text = office.parts.map((p) => `<!-- part: ${p.name} -->\n${p.text}`).join('\n');
      return answer(documentOf(resource, { text, parts: office.parts.map((p) => p.name), truncated: office.truncated }));
    }
  }
  const type = mediaType(resource.content_type);
  if (pictureTypes.has(type)) return answer(documentOf(resource), [{ type: 'image', data: bytes.toString('base64'), mimeType: type }]);
  // Anything else, and a PDF or office file we could not read: the bytes themselves.
  return answer(documentOf(resource), [{ type: 'resource', resource: { uri: resource.uri, mimeType: resource.content_type, blob: bytes.toString('base64') } }]);
}

async function fetchDocument(service: ResourceService, actor: ResourceActor, id: string, inlineBytes: number): Promise<CallToolResult> {
  const found = await service.resolve(actor, fetchTarget(id));
  // Refused before opening, so an answer without contents neither streams nor stamps last read.
  if (found.size > inlineBytes) {
    return omitted(found, `the file is ${found.size} bytes; fetch returns contents up to ${inlineBytes}. Read ${found.uri} with MCP resources/read.`);
  }
  const { resource, body } = await service.openContent(actor, found.id, 'search_fetch');
  const { bytes, cut } = await readAll(body, inlineBytes);
  if (cut) return omitted(resource, `the file grew past ${inlineBytes} bytes while being read; read ${resource.uri} with MCP resources/read.`);
  // The caller's PDFs wait in the caller's own turn (shared/pdf).
  return contentsOf(resource, bytes, `subject:${actor.subject}`);
}

export function fetchTool(service: ResourceService, opts: FetchToolOptions): ToolDefinition {
  const inlineBytes = opts.inlineBytes ?? FETCH_INLINE_BYTES;
  return defineTool({
    name: 'fetch',
    toolkit: 'platform',
    title: 'Fetch a resource',
    description,
    input,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      try {
        return await fetchDocument(service, opts.actorOf(ctx.caller, ctx.sessionId), args.id, inlineBytes);
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        if (error instanceof PdfReaderBusy) return toolError(error.message);
        throw error;
      }
    },
  });
}
