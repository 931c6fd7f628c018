/**
 * The folder tree (spec document 2, "Portal"): the top-level folders — My Resources, the personas,
 * Global, and People for a platform administrator — with their folders beneath, each loaded from
 * the facets route when it opens. A react-aria-components Tree, so the keyboard follows WAI-ARIA:
 * Up/Down move, Right opens (expands), Left closes (or goes to the parent), Enter opens the folder
 * (navigates to its address), Home/End and type-ahead. Each row says how many files are beneath it
 * and when anything beneath last changed. The open folder (the address) is expanded, its ancestors
 * too, and it is the tree's selected row (marked current).
 */
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Tree, TreeItem, TreeItemContent, TreeLoadMoreItem, type Key } from 'react-aria-components';
import { ChevronRight, Folder, FolderOpen, Globe, User, Users } from 'lucide-react';
import { messageOf } from '../../api/client';
import { joinDragHandlers } from '../../ui/drag';
import { formatRelative } from '../../ui/format';
import { apiFolderPath, folderAddress, folderName, folderOfKey, peopleAddress, type FolderRef, type ResourcesLocation } from '../address';
import { useMoves } from '../bulk/MoveProvider';
import { useFolderContents, usePeopleFolders, type LibraryFolder, type TopFolder } from './folders';
import { folderRowAt, useFileDrop } from '../upload/useFileDrop';
import './tree.css';

const peopleKey = 'people';

/** The tree key of a folder: `<library>/<folder path>` as the api names it. */
export function treeKey(folder: FolderRef): string {
  return apiFolderPath(folder);
}

/** The folder a tree key names (undefined: People). */
function keyFolder(key: string): FolderRef | undefined {
  return key === peopleKey ? undefined : folderOfKey(key);
}

/** The address a tree key opens. */
function keyAddress(key: string): string {
  const folder = keyFolder(key);
  return folder ? folderAddress(folder) : peopleAddress;
}

/** Keys to expand so the open location shows: its library (and People for another person's), every ancestor, itself. */
function keysToShow(location: ResourcesLocation, ownSubject: string): string[] {
  if (location.kind === 'people') return [peopleKey];
  if (location.kind !== 'folder') return [];
  const { library, path } = location.folder;
  const keys = library.startsWith('person:') && library !== `person:${ownSubject}` ? [peopleKey] : [];
  keys.push(treeKey({ library, path: '' }));
  const parts = path ? path.split('/') : [];
  for (let i = 1; i <= parts.length; i++) keys.push(treeKey({ library, path: parts.slice(0, i).join('/') }));
  return keys;
}

export function filesLabel(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'file' : 'files'}`;
}

const ExpandedContext = createContext<Set<Key>>(new Set());

function FolderIcon({ kind, open }: { kind: TopFolder['kind'] | 'folder'; open: boolean }) {
  const Icon = kind === 'global' ? Globe : kind === 'people' ? Users : kind === 'person' || kind === 'personal' ? User : open ? FolderOpen : Folder;
  return <Icon aria-hidden size={16} className="tree-icon" />;
}

function RowContent(props: { name: string; kind: TopFolder['kind'] | 'folder'; count: number; lastChanged: string | null; extra?: string }) {
  return (
    <TreeItemContent>
      {({ hasChildItems, isExpanded }) => (
        <div className="tree-row">
          {hasChildItems ? (
            <Button slot="chevron" className="tree-chevron">
              <ChevronRight aria-hidden size={14} />
            </Button>
          ) : (
            <span className="tree-chevron-space" />
          )}
          <FolderIcon kind={props.kind} open={isExpanded} />
          <span className="tree-text">
            <span className="tree-name">{props.name}</span>
            <span className="tree-meta">
              {props.extra ? `${props.extra} · ` : ''}
              {filesLabel(props.count)}
              {props.lastChanged ? ` · changed ${formatRelative(props.lastChanged)}` : ''}
            </span>
          </span>
        </div>
      )}
    </TreeItemContent>
  );
}

/**
 * Stands for children not read yet, so the row is expandable (aria-expanded, Right opens): the
 * Tree knows a row has children by the children in its collection. Shown while they load.
 */
function Placeholder({ loading }: { loading: boolean }) {
  return (
    <TreeLoadMoreItem isLoading={loading} className="tree-loading">
      <span className="tree-loading-text">Loading…</span>
    </TreeLoadMoreItem>
  );
}

/** A folder row and, once it is expanded, its subfolders (read from the facets route then). */
function FolderItem(props: { folder: FolderRef; name: string; kind: TopFolder['kind'] | 'folder'; count: number; lastChanged: string | null; hasChildren: boolean }) {
  const key = treeKey(props.folder);
  const expanded = useContext(ExpandedContext).has(key);
  const contents = useFolderContents(props.folder, expanded);
  const children = contents.data?.children;
  const self = contents.data?.self;
  return (
    <TreeItem id={key} textValue={props.name} hasChildItems={children ? children.length > 0 : props.hasChildren}>
      <RowContent name={props.name} kind={props.kind} count={self?.count ?? props.count} lastChanged={self ? self.last_changed_at : props.lastChanged} />
      {children ? (
        children.map((c) => (
          <FolderItem
            key={treeKey(c.folder)}
            folder={c.folder}
            name={folderName(c.folder.path)}
            kind="folder"
            count={c.facet.count}
            lastChanged={c.facet.last_changed_at}
            hasChildren={c.hasChildren}
          />
        ))
      ) : props.hasChildren ? (
        <Placeholder loading={expanded} />
      ) : null}
    </TreeItem>
  );
}

function PeopleItem({ folder }: { folder: Extract<TopFolder, { kind: 'people' }> }) {
  const expanded = useContext(ExpandedContext).has(peopleKey);
  const people = usePeopleFolders(expanded);
  return (
    <TreeItem id={peopleKey} textValue={folder.name} hasChildItems={folder.people > 0}>
      <RowContent name={folder.name} kind="people" count={folder.count} lastChanged={folder.last_changed_at} extra={`${folder.people} ${folder.people === 1 ? 'person' : 'people'}`} />
      {people.folders ? (
        people.folders.map((p: LibraryFolder) => (
          <FolderItem key={treeKey(p.folder)} folder={p.folder} name={p.name} kind="person" count={p.count} lastChanged={p.last_changed_at} hasChildren />
        ))
      ) : folder.people > 0 ? (
        <Placeholder loading={expanded} />
      ) : null}
    </TreeItem>
  );
}

/**
 * `onOpen`: opening a folder hands it to the caller instead of going to its address (the prompts
 * page's attachment picker browses the tree in place); People then only expands.
 */
export function FolderTree(props: { location: ResourcesLocation; top: TopFolder[] | undefined; topError: unknown; ownSubject: string; onOpen?: (folder: FolderRef) => void; label?: string }) {
  const navigate = useNavigate();
  const { location, ownSubject } = props;
  const [expanded, setExpanded] = useState<Set<Key>>(() => new Set(keysToShow(location, ownSubject)));
  // Opening an address (a link, Back, the listing) expands the way to it.
  const showKeys = useMemo(() => keysToShow(location, ownSubject), [location, ownSubject]);
  useEffect(() => {
    setExpanded((current) => (showKeys.every((k) => current.has(k)) ? current : new Set([...current, ...showKeys])));
  }, [showKeys]);
  const fileDrop = useFileDrop(folderRowAt);
  const current = location.kind === 'people' ? peopleKey : location.kind === 'folder' ? treeKey(location.folder) : undefined;
  const open = (key: Key) => {
    if (key === current) return;
    if (props.onOpen) {
      const folder = keyFolder(String(key));
      if (folder) props.onOpen(folder);
      return;
    }
    navigate(keyAddress(String(key)));
  };
  // Items dragged from the listing move into the folder of the row they are dropped on (in the
  // file manager; a tree used as a picker takes no drops).
  const drops = useMoves()?.dropHandlers((target) => {
    const row = target.closest<HTMLElement>('[role="row"][data-key]');
    const folder = row?.dataset.key ? keyFolder(row.dataset.key) : undefined;
    return row && folder ? { folder, element: row } : undefined;
  });

  return (
    <nav
      {...joinDragHandlers(drops, fileDrop)}
      className="folder-tree"
      aria-label={props.label ?? 'Folder tree'}
      onKeyDownCapture={(e) => {
        // Enter opens the focused folder. (The Tree performs its action on Enter only while nothing
        // is selected; the open folder is its selection, so the key is handled here.)
        const row = e.target as HTMLElement;
        if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || row.getAttribute('role') !== 'row' || !row.dataset.key) return;
        e.preventDefault();
        e.stopPropagation();
        open(row.dataset.key);
      }}
    >
      {props.topError ? (
        <p className="error-message" role="alert">
          {messageOf(props.topError)}
        </p>
      ) : null}
      <ExpandedContext.Provider value={expanded}>
        <Tree
          aria-label="Folders"
          className="tree"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={current ? [current] : []}
          onSelectionChange={(keys) => {
            if (keys === 'all') return;
            const [key] = [...keys];
            if (key !== undefined) open(key);
          }}
          onAction={open}
          expandedKeys={expanded}
          onExpandedChange={setExpanded}
        >
          {(props.top ?? []).map((f) =>
            f.kind === 'people' ? (
              <PeopleItem key={peopleKey} folder={f} />
            ) : (
              <FolderItem key={treeKey(f.folder)} folder={f.folder} name={f.name} kind={f.kind} count={f.count} lastChanged={f.last_changed_at} hasChildren />
            ),
          )}
        </Tree>
      </ExpandedContext.Provider>
    </nav>
  );
}
