/**
 * The thumbnail routes (docs/resources.md, "Thumbnails"): the tile image, served as our own PNG
 * (never the file's content type) with the protective headers of user content and audited under
 * the `portal_preview` surface without stamping last read; and Recapture / Try again. Registered
 * by resourceRoutes inside its scope (its authentication hook and error handler).
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import type { ResourceActor, ResourceService } from '../../shared/resources/index.js';
import { binarySchema, errorResponses, idParams, thumbnailQuerySchema, thumbnailSchema } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['resources'];

export function registerThumbnailRoutes(app: App, service: ResourceService, actor: (request: FastifyRequest) => ResourceActor): void {
  app.get(
    '/api/v1/resources/:id/thumbnail',
    {
      schema: {
        operationId: 'getResourceThumbnail', security: restSecurity,
        tags,
        summary: 'The thumbnail image',
        description:
          'The 800x600 PNG tile of the resource: `variant` light or dark for documents, image for SVG, PDF and raster images (a ' +
          'light or dark request of a one-image tile answers the image). While stale, the old tile. 404 when none is stored (state ' +
          'none, drawing, failed without an old tile, or icon). Audited under the portal_preview surface; does not stamp last read.',
        params: idParams,
        querystring: thumbnailQuerySchema,
        response: {
          200: { description: 'The tile', content: { 'image/png': { schema: binarySchema('PNG, 800x600') } } },
          ...errorResponses(403, 404),
        },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      const { id } = request.params;
      const state = await service.thumbnails.state(who, id);
      const variant = state.variants.includes('image') ? 'image' : request.query.variant;
      const tile = await service.thumbnails.open(who, id, variant);
      void reply.headers({
        'content-type': tile.contentType,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': 'inline',
        'cache-control': 'private, no-cache',
        'last-modified': tile.drawnAt.toUTCString(),
      });
      return reply.send(tile.body);
    },
  );

  app.post(
    '/api/v1/resources/:id/thumbnail/recapture',
    {
      schema: {
        operationId: 'recaptureResourceThumbnail', security: restSecurity,
        tags,
        summary: 'Recapture or Try again',
        description:
          'Discards both variants and draws the head version again (202; the state is drawing until it lands). Allowed to whoever ' +
          'may change the file and anyone who may add to its library (403 otherwise); 409 while a draw is under way; 400 for a file ' +
          'that keeps a content-type icon.',
        params: idParams,
        body: z.null().optional(),
        response: { 202: thumbnailSchema, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.thumbnails.recapture(actor(request), request.params.id)),
  );
}
