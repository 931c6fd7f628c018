/**
 * The file manager's dialogs, each loaded the first time it opens: none is needed to show a folder,
 * so none weighs on the initial route (PORTAL.md budget). Render them inside a Suspense boundary.
 */
import { lazy } from 'react';

export const DeleteFileDialog = lazy(() => import('./DeleteDialog').then((m) => ({ default: m.DeleteFileDialog })));
export const DeleteFolderDialog = lazy(() => import('./DeleteDialog').then((m) => ({ default: m.DeleteFolderDialog })));
export const DescribeFolderDialog = lazy(() => import('./DescribeFolderDialog').then((m) => ({ default: m.DescribeFolderDialog })));
export const MoveDialog = lazy(() => import('./MoveDialog').then((m) => ({ default: m.MoveDialog })));
export const NewFolderDialog = lazy(() => import('./NewFolderDialog').then((m) => ({ default: m.NewFolderDialog })));
export const RenameFileDialog = lazy(() => import('./RenameDialog').then((m) => ({ default: m.RenameFileDialog })));
export const RenameFolderDialog = lazy(() => import('./RenameDialog').then((m) => ({ default: m.RenameFolderDialog })));
