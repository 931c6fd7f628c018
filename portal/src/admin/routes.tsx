/**
 * The administrators' addresses under /portal/ (each page loaded on demand, never with the initial
 * route), and the Parquet viewer of any .parquet resource:
 *
 *   /portal/admin/webhooks                  webhook sources; /new creates one
 *   /portal/admin/webhooks/<name>           a source's page; /edit changes it
 *   /portal/admin/scripts                   scripts; /<id> a script's page
 *   /portal/admin/bot-check                 bot-check settings
 *   /portal/admin/secrets                   stored secrets
 *   /portal/admin/audit                     the audit trail
 *   /portal/admin/knowledge                 captured insights for review
 *   /portal/admin/personas | connections | system
 *   /portal/resources/<id>/parquet          a Parquet file as a paged table with its schema
 */
import { lazy } from 'react';
import type { RouteObject } from 'react-router';

const SourcesPage = lazy(() => import('./webhooks/SourcesPage').then((m) => ({ default: m.SourcesPage })));
const SourcePage = lazy(() => import('./webhooks/SourcePage').then((m) => ({ default: m.SourcePage })));
const SourceFormPage = lazy(() => import('./webhooks/SourceFormPage').then((m) => ({ default: m.SourceFormPage })));
const ScriptsPage = lazy(() => import('./scripts/ScriptsPage').then((m) => ({ default: m.ScriptsPage })));
const ScriptPage = lazy(() => import('./scripts/ScriptPage').then((m) => ({ default: m.ScriptPage })));
const BotCheckPage = lazy(() => import('./settings/BotCheckPage').then((m) => ({ default: m.BotCheckPage })));
const SecretsPage = lazy(() => import('./settings/SecretsPage').then((m) => ({ default: m.SecretsPage })));
const KnowledgePage = lazy(() => import('./knowledge/KnowledgePage').then((m) => ({ default: m.KnowledgePage })));
const AuditPage = lazy(() => import('./audit/AuditPage').then((m) => ({ default: m.AuditPage })));
const PersonasPage = lazy(() => import('./platform/PersonasPage').then((m) => ({ default: m.PersonasPage })));
const ConnectionsPage = lazy(() => import('./platform/ConnectionsPage').then((m) => ({ default: m.ConnectionsPage })));
const SystemPage = lazy(() => import('./platform/SystemPage').then((m) => ({ default: m.SystemPage })));
const ParquetViewerPage = lazy(() => import('./parquet/ParquetViewerPage').then((m) => ({ default: m.ParquetViewerPage })));

export const adminRoutes: RouteObject[] = [
  { path: 'admin/webhooks', element: <SourcesPage /> },
  { path: 'admin/webhooks/new', element: <SourceFormPage mode="create" /> },
  { path: 'admin/webhooks/:name', element: <SourcePage /> },
  { path: 'admin/webhooks/:name/edit', element: <SourceFormPage mode="edit" /> },
  { path: 'admin/scripts', element: <ScriptsPage /> },
  { path: 'admin/scripts/:id', element: <ScriptPage /> },
  { path: 'admin/bot-check', element: <BotCheckPage /> },
  { path: 'admin/secrets', element: <SecretsPage /> },
  { path: 'admin/audit', element: <AuditPage /> },
  { path: 'admin/knowledge', element: <KnowledgePage /> },
  { path: 'admin/personas', element: <PersonasPage /> },
  { path: 'admin/connections', element: <ConnectionsPage /> },
  { path: 'admin/system', element: <SystemPage /> },
  { path: 'resources/:id/parquet', element: <ParquetViewerPage /> },
];
