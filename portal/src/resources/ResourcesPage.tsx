/**
 * The Resources file manager (spec document 2, "Portal"): folder tree, listing of the open folder,
 * and the preview pane (hidden below 1280 px). The open folder is the address; the selection is
 * the page's state.
 */
import { useParams } from 'react-router';
import { parseFolderSplat, type FolderRef } from './address';
import { FolderTree } from './tree/FolderTree';
import { FolderListing } from './listing/FolderListing';
import { PreviewPane } from './preview/PreviewPane';
import { useState } from 'react';

export function ResourcesPage() {
  const splat = useParams()['*'];
  const folder: FolderRef | undefined = splat === undefined ? undefined : parseFolderSplat(splat);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  return (
    <div className="file-manager">
      <h1 className="visually-hidden">Resources</h1>
      <FolderTree open={folder} />
      <FolderListing folder={folder} invalidAddress={splat !== undefined && !folder} selectedId={selectedId} onSelect={setSelectedId} />
      <PreviewPane resourceId={selectedId} />
    </div>
  );
}
