/**
 * The portal's addresses (spec document 2, "Portal addresses", under /portal/): each location is an
 * address of its own, so reload, links and Back work.
 *
 *   /portal/resources                          the top-level folders
 *   /portal/resources/lib/<library>/<path>     a folder: global, person:<id>, persona:<name>
 *   /portal/resources/<id>                     one resource
 *   /portal/admin/resources/<id>               one resource, administrator section
 *   /portal/admin/…, /portal/resources/<id>/parquet   admin/routes.tsx
 */
import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './Shell';
import { RouteError, NotFound } from './errors';
import { ResourcesPage } from '../resources/ResourcesPage';
import { ResourceDetailsPage } from '../resources/ResourceDetailsPage';
import { adminRoutes } from '../admin/routes';

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <Shell />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Navigate to="/resources" replace /> },
        { path: 'resources', element: <ResourcesPage /> },
        { path: 'resources/lib/*', element: <ResourcesPage /> },
        { path: 'resources/:id', element: <ResourceDetailsPage section="resources" /> },
        { path: 'admin/resources/:id', element: <ResourceDetailsPage section="admin" /> },
        // The administrators' pages and the Parquet viewer (admin/routes.tsx).
        ...adminRoutes,
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/portal' },
);
