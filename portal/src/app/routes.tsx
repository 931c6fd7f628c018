/**
 * The portal's addresses (spec document 2, "Portal addresses", under /portal/): each location is an
 * address of its own, so reload, links and Back work.
 *
 *   /portal/resources                          the top-level folders
 *   /portal/resources/lib/<library>/<path>     a folder: global, person:<id>, persona:<name>
 *   /portal/resources/<id>                     one resource
 *   /portal/admin/resources/<id>               one resource, administrator section
 *   /portal/assets, /portal/assets/shared      My assets, Shared with me
 *   /portal/assets/<id>                        one asset (save_artifact's portal_url)
 *   /portal/prompts, /portal/prompts/<id>      the person's prompts and their attachments
 *   /portal/admin/…, /portal/resources/<id>/parquet   admin/routes.tsx
 */
import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Shell } from './Shell';
import { RouteError, NotFound } from './errors';
import { ResourcesPage } from '../resources/ResourcesPage';
import { adminRoutes } from '../admin/routes';

// Pages other than the file manager load when first visited (PORTAL.md: the initial route's
// JavaScript stays within its budget); the shell's Suspense shows "Loading…" meanwhile.
const ResourceDetailsPage = lazy(() => import('../resources/ResourceDetailsPage').then((m) => ({ default: m.ResourceDetailsPage })));

// Assets and shares (issue 38), loaded when first opened.
const MyAssetsPage = lazy(() => import('../assets/AssetsPage').then((m) => ({ default: m.MyAssetsPage })));
const SharedAssetsPage = lazy(() => import('../assets/AssetsPage').then((m) => ({ default: m.SharedAssetsPage })));
const AssetDetailsPage = lazy(() => import('../assets/AssetDetailsPage').then((m) => ({ default: m.AssetDetailsPage })));

// Prompts with attached resources (issue 40), loaded when first opened.
const PromptsPage = lazy(() => import('../prompts/PromptsPage').then((m) => ({ default: m.PromptsPage })));

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
        { path: 'assets', element: <MyAssetsPage /> },
        { path: 'assets/shared', element: <SharedAssetsPage /> },
        { path: 'assets/:id', element: <AssetDetailsPage /> },
        { path: 'prompts', element: <PromptsPage /> },
        { path: 'prompts/:id', element: <PromptsPage /> },
        // The administrators' pages and the Parquet viewer (admin/routes.tsx).
        ...adminRoutes,
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/portal' },
);
