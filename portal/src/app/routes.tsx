/**
 * The portal's addresses (spec document 2, "Portal addresses", under /portal/): each location is an
 * address of its own, so reload, links and Back work.
 *
 *   /portal/resources                          the top-level folders
 *   /portal/resources/lib/<library>/<path>     a folder: global, person:<id>, persona:<name>
 *   /portal/resources/<id>                     one resource
 *   /portal/admin/resources/<id>               one resource, administrator section
 */
import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './Shell';
import { RouteError, NotFound } from './errors';
import { ResourcesPage } from '../resources/ResourcesPage';

// Pages other than the file manager load when first visited (PORTAL.md: the initial route's
// JavaScript stays within its budget); the shell's Suspense shows "Loading…" meanwhile.
const ResourceDetailsPage = lazy(() => import('../resources/ResourceDetailsPage').then((m) => ({ default: m.ResourceDetailsPage })));

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
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/portal' },
);
