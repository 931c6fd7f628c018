/**
 * The Resources file manager (spec document 2, "Portal"): folder tree, listing of the open folder,
 * and the preview pane (hidden below 1280 px). The open location is the address (reload, links and
 * Back work); the selection is the page's state. Moves by drag between the listing and the tree,
 * and their Undo, are MoveProvider's.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useSession } from '../app/session';
import { parseResourcesLocation } from './address';
import { MoveProvider } from './bulk/MoveProvider';
import { FolderListing } from './listing/FolderListing';
import { PreviewPane } from './preview/PreviewPane';
import { FolderTree } from './tree/FolderTree';
import { useTopFolders } from './tree/folders';
import { UploadProvider } from './upload/context';

export function ResourcesPage() {
  const splat = useParams()['*'];
  const location = useMemo(() => parseResourcesLocation(splat), [splat]);
  const session = useSession();
  const top = useTopFolders();
  const [selectedId, setSelectedId] = useState<string | undefined>();
  return (
    <MoveProvider>
      <UploadProvider top={top.folders}>
        <div className="file-manager">
          <h1 className="visually-hidden">Resources</h1>
          <FolderTree location={location} top={top.folders} topError={top.error} ownSubject={session.subject} />
          <FolderListing location={location} top={top.folders} ownSubject={session.subject} onSelect={setSelectedId} />
          <PreviewPane resourceId={selectedId} />
        </div>
      </UploadProvider>
    </MoveProvider>
  );
}
