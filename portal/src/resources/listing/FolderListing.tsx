/**
 * The listing of the open location (spec document 2, "Portal"):
 *
 * - `/resources`: the top-level folders (My Resources, the personas, Global, People);
 * - `/resources/lib/people`: one folder per person (platform administrators);
 * - a folder: its subfolders first, then its files, paged from GET /api/v1/resources (cursor) as
 *   the listing scrolls; a top-level folder lists folders, not files, plus a row saying how many
 *   files sit at its top level, which opens `?files=all` (every file of the library, the top-level
 *   ones among them, each opening at its own page).
 *
 * Sort by clicking a column header (a second click reverses; the sort is in the address), keyboard
 * and context menu actions (ListingGrid, RowMenu), bulk actions on a selection and moves by drag
 * (../bulk, with the selection bar above the grid), each offered exactly where the answer's
 * allowed_actions (files) or the folder's allowed_actions say the server accepts it; the dialogs
 * (../dialogs) show the server's refusals. After an action the tree and the listing are read again
 * and focus goes back to a row: the same one, the renamed or new one, or after a delete or a move
 * away, the next.
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { FileText, FolderPlus, Upload } from 'lucide-react';
import { messageOf } from '../../api/client';
import type { Answer } from '../../api/types';
import { ErrorMessage } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { apiFolderPath, folderAddress, folderName, parentFolder, peopleAddress, resourceAddress, type FolderRef, type ResourcesLocation } from '../address';
import {
  DeleteFileDialog,
  DeleteFolderDialog,
  DescribeFolderDialog,
  MoveDialog,
  NewFolderDialog,
  RenameFileDialog,
  RenameFolderDialog,
} from '../dialogs/lazy';
import { useListingBulk } from '../bulk/useListingBulk';
import { filesLabel, treeKey } from '../tree/FolderTree';
import { useFolderContents, usePeopleFolders, type LibraryFolder, type TopFolder } from '../tree/folders';
import { useUploads } from '../upload/context';
import { folderRowAt, useFileDrop } from '../upload/useFileDrop';
import { emptyGrid, ListingGrid, type GridState } from './ListingGrid';
import { RowMenu, type MenuAction, type MenuState } from './RowMenu';
import { fileKey, sortFolders, sorts, useFileList, type FileRow, type FolderRow, type ListedResource, type Row, type Sort } from './rows';
import './listing.css';

type Dialog =
  | { kind: 'rename-file'; resource: ListedResource }
  | { kind: 'move-file'; resource: ListedResource }
  | { kind: 'delete-file'; resource: ListedResource }
  | { kind: 'rename-folder'; folder: FolderRef }
  | { kind: 'move-folder'; folder: FolderRef }
  | { kind: 'delete-folder'; folder: FolderRef }
  | { kind: 'describe-folder'; folder: FolderRef; description: string; fromRow: boolean }
  | { kind: 'new-folder'; parent: FolderRef };

const peopleKey = 'people';

function parseSort(value: string | null): Sort {
  return sorts.includes(value as Sort) ? (value as Sort) : 'name';
}

function topRow(f: TopFolder): FolderRow {
  if (f.kind === 'people') {
    return { type: 'folder', key: peopleKey, name: f.name, kind: 'people', to: peopleAddress, count: f.count, lastChanged: f.last_changed_at, description: '' };
  }
  return libraryRow(f);
}

function libraryRow(f: LibraryFolder): FolderRow {
  return {
    type: 'folder',
    key: treeKey(f.folder),
    name: f.name,
    kind: f.kind,
    to: folderAddress(f.folder),
    folder: f.folder,
    count: f.count,
    lastChanged: f.last_changed_at,
    description: f.description,
    actions: f.allowed_actions,
  };
}

function rowName(row: Row): string {
  return row.type === 'file' ? row.resource.display_name : row.type === 'folder' ? row.name : `${filesLabel(row.count)} at the top level`;
}

/** What may be done with a row, in menu order: exactly what the allowed actions say. */
function rowActions(row: Row): MenuAction[] {
  const open: MenuAction = { id: 'open', label: 'Open', shortcut: 'Enter' };
  if (row.type === 'file') {
    const a = row.resource.allowed_actions;
    return [
      open,
      ...(a.change ? [{ id: 'rename', label: 'Rename…', shortcut: 'F2' }, { id: 'move', label: 'Move to…' }] : []),
      ...(a.delete ? [{ id: 'delete', label: 'Delete…', shortcut: 'Delete', danger: true }] : []),
    ];
  }
  if (row.type === 'folder' && row.folder && row.folder.path !== '' && row.actions) {
    const a = row.actions;
    return [
      open,
      // Renaming and moving a folder need what creating and deleting folders there needs (the
      // server also checks every file beneath, naming one it refuses).
      ...(a.delete ? [{ id: 'rename', label: 'Rename…', shortcut: 'F2' }, { id: 'move', label: 'Move to…' }] : []),
      ...(a.describe ? [{ id: 'describe', label: 'Describe…' }] : []),
      ...(a.add ? [{ id: 'upload', label: 'Upload here…' }] : []),
      ...(a.delete ? [{ id: 'delete', label: 'Delete…', shortcut: 'Delete', danger: true }] : []),
    ];
  }
  // A top-level folder: Upload here where the api lets the person add files.
  if (row.type === 'folder' && row.folder && row.actions?.add) return [open, { id: 'upload', label: 'Upload here…' }];
  return [open];
}

type ListPage = Answer<'listResources'>;

export function FolderListing(props: { location: ResourcesLocation; top: TopFolder[] | undefined; ownSubject: string; onSelect(id: string | undefined): void }) {
  const { location, top, ownSubject } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sort = parseSort(params.get('sort'));
  const folder = location.kind === 'folder' ? location.folder : undefined;
  const isLibraryRoot = folder?.path === '';
  const filesAll = isLibraryRoot && params.get('files') === 'all';
  const contents = useFolderContents(folder);
  const isOtherPerson = !!folder && folder.library.startsWith('person:') && folder.library !== `person:${ownSubject}`;
  const people = usePeopleFolders(location.kind === 'people' || isOtherPerson);
  const listFiles = folder !== undefined && (!isLibraryRoot || filesAll);
  const files = useFileList(listFiles ? apiFolderPath(folder) : undefined, !filesAll, sort);
  const self = contents.data?.self;

  /** What the file manager calls a library: My Resources, the persona, Global, the person. */
  const libraryName = useCallback(
    (library: string) => {
      const named = [...(top ?? []), ...(people.folders ?? [])].find((f): f is LibraryFolder => f.kind !== 'people' && f.folder.library === library);
      if (named) return named.name;
      return library === 'global' ? 'Global' : library.replace(/^persona:|^person:/, '');
    },
    [top, people.folders],
  );

  const withSort = useCallback((to: string) => (sort === 'name' ? to : `${to}${to.includes('?') ? '&' : '?'}sort=${sort}`), [sort]);

  // ---- rows ------------------------------------------------------------------------------------
  const folderRows: FolderRow[] = useMemo(() => {
    if (location.kind === 'root') return (top ?? []).map(topRow);
    if (location.kind === 'people') return sortFolders((people.folders ?? []).map(libraryRow), sort);
    if (!folder || filesAll) return [];
    return sortFolders(
      (contents.data?.children ?? []).map(
        (c): FolderRow => ({
          type: 'folder',
          key: treeKey(c.folder),
          name: folderName(c.folder.path),
          kind: 'folder',
          to: folderAddress(c.folder),
          folder: c.folder,
          count: c.facet.count,
          lastChanged: c.facet.last_changed_at,
          description: c.facet.description,
          actions: c.facet.allowed_actions,
        }),
      ),
      sort,
    );
  }, [location.kind, top, people.folders, folder, filesAll, contents.data, sort]);

  const fileRows: FileRow[] = useMemo(
    () => (files.data?.pages ?? []).flatMap((p) => p.items).map((resource) => ({ type: 'file', key: fileKey(resource.id), resource })),
    [files.data],
  );

  const rows: Row[] = useMemo(() => {
    const topFiles: Row[] =
      folder && isLibraryRoot && !filesAll && self && self.direct_count > 0
        ? [{ type: 'top-files', key: 'top-files', count: self.direct_count, to: `${folderAddress(folder)}?files=all` }]
        : [];
    return [...folderRows, ...topFiles, ...fileRows];
  }, [folderRows, fileRows, folder, isLibraryRoot, filesAll, self]);

  const totalRows =
    location.kind === 'root' || location.kind === 'people'
      ? folderRows.length
      : self
        ? folderRows.length + (isLibraryRoot && !filesAll ? (self.direct_count > 0 ? 1 : 0) : filesAll ? self.count : self.direct_count)
        : undefined;
  const lastRead = fileRows.some((r) => 'last_read_at' in r.resource) || sort === 'last_read' || sort === 'last_read_asc';
  const loading = (location.kind === 'root' && !top) || (folder !== undefined && contents.isPending) || (listFiles && files.isPending);

  // ---- grid state (reset when the location changes), focus and selection -------------------------
  const locationKey = `${location.kind}:${folder ? apiFolderPath(folder) : ''}:${filesAll}`;
  const [grid, setGrid] = useState<GridState>(emptyGrid);
  const [focusRequest, setFocusRequest] = useState(0);
  /** Where focus goes once the next location's rows are in: the folder we came up from, or the first row. */
  const focusAfterNavigation = useRef<string | 'first' | null>(null);
  const [shownLocation, setShownLocation] = useState(locationKey);
  if (shownLocation !== locationKey) {
    setShownLocation(locationKey);
    setGrid(emptyGrid);
  }
  useEffect(() => {
    const want = focusAfterNavigation.current;
    if (!want || loading) return;
    const target = want === 'first' ? rows[0] : (rows.find((r) => r.key === want) ?? rows[0]);
    focusAfterNavigation.current = null;
    if (!target) return;
    setGrid({ focusedKey: target.key, anchorKey: target.key, selected: new Set([target.key]) });
    setFocusRequest((n) => n + 1);
  }, [rows, loading]);

  const focusRow = (key: string | undefined) => {
    if (key === undefined) return;
    setGrid((g) => ({ ...g, focusedKey: key, anchorKey: key, selected: new Set([key]) }));
    setFocusRequest((n) => n + 1);
  };

  // The preview shows the one selected file.
  const { onSelect } = props;
  const selectedFile = grid.selected.size === 1 && grid.focusedKey?.startsWith('file:') && grid.selected.has(grid.focusedKey) ? grid.focusedKey.slice(5) : undefined;
  useEffect(() => onSelect(selectedFile), [selectedFile, onSelect]);

  // ---- navigation --------------------------------------------------------------------------------
  const open = (row: Row) => {
    if (row.type === 'file') return navigate(resourceAddress(row.resource.id));
    focusAfterNavigation.current = 'first';
    navigate(withSort(row.to));
  };
  const goUp = () => {
    if (location.kind === 'people') {
      focusAfterNavigation.current = peopleKey;
      return navigate(withSort('/resources'));
    }
    if (!folder) return;
    if (filesAll) {
      focusAfterNavigation.current = 'top-files';
      return navigate(withSort(folderAddress(folder)));
    }
    focusAfterNavigation.current = treeKey(folder);
    const parent = parentFolder(folder);
    if (parent) return navigate(withSort(folderAddress(parent)));
    navigate(withSort(isOtherPerson ? peopleAddress : '/resources'));
  };

  // ---- actions -----------------------------------------------------------------------------------
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const uploads = useUploads();
  // A drop from the desktop: onto a folder row, else (the background, a file row) into the open folder.
  const fileDrop = useFileDrop((target, container) => folderRowAt(target) ?? (folder ? { folder, element: container } : undefined));
  const [menu, setMenu] = useState<(MenuState & { row: Row }) | null>(null);
  const [status, setStatus] = useState('');

  const nextKeyAfter = (key: string) => {
    const i = rows.findIndex((r) => r.key === key);
    return (rows[i + 1] ?? rows[i - 1])?.key;
  };
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['folders'] }),
      queryClient.invalidateQueries({ queryKey: ['list'] }),
      queryClient.invalidateQueries({ queryKey: ['resource'] }),
    ]);
  /** Closes the dialog; focus then goes to the row (after the dialog's own focus restoration, which runs in the next frame). */
  const closeDialog = (focusKey?: string) => {
    setDialog(null);
    if (focusKey !== undefined) requestAnimationFrame(() => setTimeout(() => focusRow(focusKey)));
  };

  const bulk = useListingBulk({
    rows,
    grid,
    setGrid,
    libraryName,
    refresh: () => void refresh(),
    say: setStatus,
    focusRow: (key) => closeDialog(key),
  });

  const run = (id: string, row: Row) => {
    if (bulk.intercept(id, row)) return;
    const allowed = rowActions(row).some((a) => a.id === id);
    if (!allowed) {
      if (id !== 'open') setStatus(`${id === 'delete' ? 'Delete' : 'Rename'} is not offered for ${rowName(row)}.`);
      return;
    }
    if (id === 'open') return open(row);
    if (id === 'upload' && row.type === 'folder' && row.folder) return uploads.open({ target: row.folder });
    if (row.type === 'file') {
      const resource = row.resource;
      if (id === 'rename') setDialog({ kind: 'rename-file', resource });
      else if (id === 'move') setDialog({ kind: 'move-file', resource });
      else if (id === 'delete') setDialog({ kind: 'delete-file', resource });
    } else if (row.type === 'folder' && row.folder) {
      const f = row.folder;
      if (id === 'rename') setDialog({ kind: 'rename-folder', folder: f });
      else if (id === 'move') setDialog({ kind: 'move-folder', folder: f });
      else if (id === 'delete') setDialog({ kind: 'delete-folder', folder: f });
      else if (id === 'describe') setDialog({ kind: 'describe-folder', folder: f, description: row.description, fromRow: true });
    }
  };

  const handlers = {
    onOpen: open,
    onGoUp: goUp,
    onDelete: (row: Row) => run('delete', row),
    onRename: (row: Row) => run('rename', row),
    onMenu: (row: Row, anchor: MenuState['anchor']) => setMenu({ row, anchor, ...(bulk.menuActions(row) ?? { label: `Actions for ${rowName(row)}`, actions: rowActions(row) }) }),
  };

  const removeFromLists = (id: string) =>
    queryClient.setQueriesData<InfiniteData<ListPage>>({ queryKey: ['list'] }, (data) =>
      data ? { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) })) } : data,
    );

  const dialogs = () => {
    if (!dialog) return null;
    const back = () => {
      const focus = grid.focusedKey;
      closeDialog(dialog.kind === 'describe-folder' && !dialog.fromRow ? undefined : focus);
    };
    switch (dialog.kind) {
      case 'rename-file':
        return (
          <RenameFileDialog
            resource={dialog.resource}
            onClose={back}
            onDone={async (updated) => {
              await refresh();
              setStatus(`Renamed to ${updated.display_name}.`);
              closeDialog(fileKey(updated.id));
            }}
          />
        );
      case 'move-file': {
        const key = fileKey(dialog.resource.id);
        return (
          <MoveDialog
            target={{ type: 'file', resource: dialog.resource }}
            libraryName={libraryName(dialog.resource.library)}
            onClose={back}
            onDone={async ({ resource }) => {
              const next = filesAll ? key : nextKeyAfter(key);
              if (!filesAll) removeFromLists(dialog.resource.id);
              await refresh();
              setStatus(`Moved ${dialog.resource.display_name} to ${resource?.path || 'the top level'}.`);
              closeDialog(next);
            }}
          />
        );
      }
      case 'delete-file': {
        const key = fileKey(dialog.resource.id);
        return (
          <DeleteFileDialog
            resource={dialog.resource}
            onClose={back}
            onDone={async () => {
              const next = nextKeyAfter(key);
              removeFromLists(dialog.resource.id);
              closeDialog(next);
              setStatus(`Deleted ${dialog.resource.display_name}.`);
              await refresh();
            }}
          />
        );
      }
      case 'rename-folder':
        return (
          <RenameFolderDialog
            folder={dialog.folder}
            onClose={back}
            onDone={async (renamed) => {
              await refresh();
              setStatus(`Renamed the folder to ${folderName(renamed.path)}.`);
              closeDialog(treeKey(renamed));
            }}
          />
        );
      case 'move-folder':
        return (
          <MoveDialog
            target={{ type: 'folder', folder: dialog.folder }}
            libraryName={libraryName(dialog.folder.library)}
            onClose={back}
            onDone={async ({ folder: moved }) => {
              const next = nextKeyAfter(treeKey(dialog.folder));
              await refresh();
              setStatus(`Moved the folder to ${moved?.path ?? ''}.`);
              closeDialog(next);
            }}
          />
        );
      case 'delete-folder':
        return (
          <DeleteFolderDialog
            folder={dialog.folder}
            name={folderName(dialog.folder.path)}
            onClose={back}
            onDone={async () => {
              const next = nextKeyAfter(treeKey(dialog.folder));
              await refresh();
              setStatus(`Deleted the folder ${folderName(dialog.folder.path)}.`);
              closeDialog(next);
            }}
          />
        );
      case 'describe-folder':
        return (
          <DescribeFolderDialog
            folder={dialog.folder}
            name={folderName(dialog.folder.path)}
            description={dialog.description}
            onClose={back}
            onDone={async () => {
              await refresh();
              setStatus(`Saved the description of ${folderName(dialog.folder.path)}.`);
              back();
            }}
          />
        );
      case 'new-folder':
        return (
          <NewFolderDialog
            parent={dialog.parent}
            parentName={dialog.parent.path ? folderName(dialog.parent.path) : libraryName(dialog.parent.library)}
            onClose={back}
            onDone={async (created) => {
              await refresh();
              setStatus(`Created the folder ${folderName(created.path)}.`);
              closeDialog(treeKey(created));
            }}
          />
        );
    }
  };

  const { isFetchingNextPage, fetchNextPage } = files;
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [isFetchingNextPage, fetchNextPage]);

  // ---- header ------------------------------------------------------------------------------------
  if (location.kind === 'invalid') {
    return (
      <section className="listing" aria-label="Files">
        <p className="listing-message" role="alert">
          This address names no folder. <Link to="/resources">Go to Resources</Link>.
        </p>
      </section>
    );
  }

  const crumbs: Array<{ label: string; to?: string }> = [{ label: 'Resources', to: '/resources' }];
  if (location.kind === 'people') crumbs.push({ label: 'People' });
  if (folder) {
    if (isOtherPerson) crumbs.push({ label: 'People', to: peopleAddress });
    crumbs.push({ label: libraryName(folder.library), to: folderAddress({ library: folder.library, path: '' }) });
    const parts = folder.path ? folder.path.split('/') : [];
    parts.forEach((part, i) => crumbs.push({ label: part, to: folderAddress({ library: folder.library, path: parts.slice(0, i + 1).join('/') }) }));
    if (filesAll) crumbs.push({ label: 'Every file' });
  }
  const last = crumbs.length - 1;
  const title = filesAll ? `Every file in ${crumbs[last - 1]!.label}` : crumbs[last]!.label;
  const error = location.kind === 'root' ? undefined : (contents.error ?? files.error ?? people.error);
  const canAdd = folder !== undefined && !filesAll && self?.allowed_actions.add === true;
  const canDescribe = folder !== undefined && !filesAll && self?.allowed_actions.describe === true;
  const loadedFiles = fileRows.length;
  const expectedFiles = self ? (filesAll ? self.count : isLibraryRoot ? 0 : self.direct_count) : undefined;
  const emptyText =
    location.kind === 'root' ? 'No folders.' : location.kind === 'people' ? 'Nobody else has files yet.' : isLibraryRoot ? 'No folders yet.' : 'This folder is empty.';

  return (
    <section className="listing" aria-labelledby="listing-title" {...fileDrop}>
      <header className="listing-header">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            {crumbs.map((c, i) => (
              <li key={`${i}:${c.label}`}>
                {c.to && i < last ? <Link to={withSort(c.to)}>{c.label}</Link> : <span aria-current={i === last ? 'page' : undefined}>{c.label}</span>}
              </li>
            ))}
          </ol>
        </nav>
        <div className="listing-title-row">
          <h2 id="listing-title" className="listing-title">
            {title}
          </h2>
          <div className="listing-tools" role="toolbar" aria-label="Folder actions">
            {filesAll && folder ? (
              <Link className="button" to={withSort(folderAddress(folder))}>
                <FileText aria-hidden size={16} /> Back to the folders
              </Link>
            ) : null}
            {canDescribe && folder ? (
              <Button onPress={() => setDialog({ kind: 'describe-folder', folder, description: self?.description ?? '', fromRow: false })}>Describe folder</Button>
            ) : null}
            {canAdd && folder ? (
              <Button onPress={() => uploads.open({ target: folder })}>
                <Upload aria-hidden size={16} /> Upload
              </Button>
            ) : null}
            {canAdd && folder ? (
              <Button onPress={() => setDialog({ kind: 'new-folder', parent: folder })}>
                <FolderPlus aria-hidden size={16} /> New folder
              </Button>
            ) : null}
          </div>
        </div>
        {self?.description && !filesAll ? <p className="listing-description">{self.description}</p> : null}
        <ErrorMessage>{error ? messageOf(error) : undefined}</ErrorMessage>
      </header>
      {bulk.bar}
      <ListingGrid
        label={title}
        rows={rows}
        totalRows={totalRows}
        sort={sort}
        onSort={(next) =>
          setParams(
            (p) => {
              const q = new URLSearchParams(p);
              if (next === 'name') q.delete('sort');
              else q.set('sort', next);
              return q;
            },
            { replace: true },
          )
        }
        lastRead={lastRead}
        hasMore={!!files.hasNextPage}
        loadMore={loadMore}
        state={grid}
        onState={setGrid}
        focusRequest={focusRequest}
        handlers={handlers}
        rowProps={bulk.rowProps}
        gridProps={bulk.gridProps}
      />
      {!loading && rows.length === 0 && !error ? <p className="listing-message">{emptyText}</p> : null}
      <footer className="listing-footer">
        <span>
          {loading
            ? 'Loading…'
            : [
                folderRows.length > 0 ? `${folderRows.length.toLocaleString()} ${folderRows.length === 1 ? 'folder' : 'folders'}` : '',
                listFiles
                  ? expectedFiles !== undefined && loadedFiles < expectedFiles
                    ? `${loadedFiles.toLocaleString()} of ${filesLabel(expectedFiles)} loaded`
                    : filesLabel(loadedFiles)
                  : '',
              ]
                .filter(Boolean)
                .join(' · ')}
          {files.isFetchingNextPage ? ' · loading more…' : ''}
        </span>
        <span role="status" className="listing-status">
          {status}
        </span>
      </footer>
      <RowMenu
        menu={menu}
        onClose={() => setMenu(null)}
        onAction={(id) => {
          const row = menu?.row;
          if (row) run(id, row);
        }}
      />
      <Suspense fallback={null}>
        {dialogs()}
        {bulk.dialog}
      </Suspense>
    </section>
  );
}
