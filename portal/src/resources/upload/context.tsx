/**
 * The file manager's uploads: one place that opens the Upload dialog (the toolbar's Upload, a
 * folder's "Upload here", a drop from the desktop) and knows where the person may add files — read
 * from the api's own allowed actions of each top-level folder (and of each person's library under
 * People, for a platform administrator), never decided here. The dialog is loaded when it opens.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Answer } from '../../api/types';
import type { FolderRef } from '../address';
import type { LibraryFolder, TopFolder } from '../tree/folders';
import type { Picked } from './sources';

const UploadDialog = lazy(() => import('./UploadDialog').then((m) => ({ default: m.UploadDialog })));

/** A top-level folder the person may add files to, as the dialog offers it. */
export interface AddableLibrary {
  library: string;
  name: string;
}

export interface UploadRequest {
  /** The folder to upload into (the open folder, the folder of "Upload here", the drop target). */
  target: FolderRef | undefined;
  /** Files already chosen (a drop), still being read when folders are walked. */
  picked?: Promise<Picked[]>;
}

interface Uploads {
  open(request: UploadRequest): void;
  /** Whether the api lets the person add files to this library (its allowed_actions.add). */
  canAdd(library: string): boolean;
}

const UploadContext = createContext<Uploads>({ open: () => undefined, canAdd: () => false });

export function useUploads(): Uploads {
  return useContext(UploadContext);
}

export function UploadProvider(props: { top: TopFolder[] | undefined; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<UploadRequest | null>(null);
  const { top } = props;

  /** Every library the person may add to, as the api answered: the top-level folders, and any person under People already read. */
  const addable = useCallback((): AddableLibrary[] => {
    const people = queryClient.getQueryData<InfiniteData<Answer<'listPeopleFolders'>>>(['folders', 'people']);
    const libraries: Array<Pick<LibraryFolder, 'name' | 'allowed_actions'> & { library: string }> = [
      ...(top ?? []).flatMap((f) => (f.kind === 'people' ? [] : [{ library: f.folder.library, name: f.name, allowed_actions: f.allowed_actions }])),
      ...(people?.pages ?? []).flatMap((p) => p.items.map((i) => ({ library: i.library, name: i.name, allowed_actions: i.allowed_actions }))),
    ];
    const seen = new Set<string>();
    return libraries.filter((l) => l.allowed_actions.add && !seen.has(l.library) && seen.add(l.library)).map(({ library, name }) => ({ library, name }));
  }, [queryClient, top]);

  const value = useMemo<Uploads>(
    () => ({
      open: (r) => setRequest(r),
      canAdd: (library) => addable().some((l) => l.library === library),
    }),
    [addable],
  );

  return (
    <UploadContext.Provider value={value}>
      {props.children}
      {request ? (
        <Suspense fallback={null}>
          <UploadDialog
            request={request}
            libraries={addable()}
            onUploaded={() => Promise.all([queryClient.invalidateQueries({ queryKey: ['folders'] }), queryClient.invalidateQueries({ queryKey: ['list'] })])}
            onClose={() => setRequest(null)}
          />
        </Suspense>
      ) : null}
    </UploadContext.Provider>
  );
}
