/** The managed-resources REST surface: one Fastify plugin the api registers. */
export { resourceRoutes, type ResourceRoutesOptions } from './routes.js';
