/**
 * A bulk action on a selection (spec document 2: "Bulk actions (Move to, Tag, Delete) run one
 * request per file; Tag adds to existing tags; a selected folder stands for every file inside"):
 *
 * - Tag and Delete first count the files inside each selected folder (the action's button is held
 *   until counted; a failed count offers Retry);
 * - then one request per file, four at a time, with a progress bar;
 * - Delete removes each folder last, only when every file in it went (DELETE folder needs it
 *   empty); a folder whose files could not all be deleted stays, and the summary says why (its
 *   folders that were emptied go);
 * - Move to moves files (PATCH `path`) and folders (the folder rename route, with what is beneath)
 *   into one folder of the library; the moves can be undone afterwards (the listing's Undo).
 *
 * The summary states what was done and each failure in the server's words.
 */
import { useCallback, useEffect, useState } from 'react';
import { messageOf } from '../../api/client';
import { ErrorMessage } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { folderKey } from '../address';
import { destinationPath, FolderCombo } from '../dialogs/FolderCombo';
import type { ListedResource } from '../listing/rows';
import { filesLabel } from '../tree/FolderTree';
import { itemsLabel, libraryOf, type BulkAction, type BulkItem } from './items';
import { emptiedFolders } from './rules';
import { addTags, deleteFile, deleteFolder, filesBeneath, foldersBeneath, moveItem, placeOf, runEach, type Failure, type MoveRecord } from './operations';
import './bulk.css';

export interface BulkOutcome {
  action: BulkAction;
  /** Moves made (Move to), for Undo. */
  moved: MoveRecord[];
  /** Keys of the listing rows that are gone (deleted, moved away). */
  gone: string[];
  /** What was said about it. */
  summary: string;
}

type Phase =
  | { step: 'counting' }
  | { step: 'count-failed'; message: string }
  | { step: 'ready' }
  | { step: 'running'; done: number; total: number }
  | { step: 'summary'; summary: string; failures: Failure[] };

const titles: Record<BulkAction, string> = { move: 'Move', tag: 'Tag', delete: 'Delete' };

/** Tags typed as "a, b, c". */
function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

function ofCount(done: number, total: number, one: string, many: string): string {
  return `${done.toLocaleString()} of ${total.toLocaleString()} ${total === 1 ? one : many}`;
}

export function BulkDialog(props: {
  action: BulkAction;
  items: BulkItem[];
  libraryName: string;
  /** The requests ran (the listing and tree are read again). */
  onChanged(): void;
  onClose(outcome: BulkOutcome | undefined): void;
}) {
  const { action, items } = props;
  const folders = items.flatMap((i) => (i.kind === 'folder' ? [i] : []));
  const needsCount = action !== 'move' && folders.length > 0;
  const [phase, setPhase] = useState<Phase>(needsCount ? { step: 'counting' } : { step: 'ready' });
  /** The files and the folders beneath each selected folder, by folder key. */
  const [inside, setInside] = useState<Map<string, { files: ListedResource[]; folders: string[] }>>(new Map());
  const [attempt, setAttempt] = useState(0);
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<BulkOutcome | undefined>();

  // Count the files inside the selected folders (again on Retry).
  useEffect(() => {
    if (!needsCount) return;
    let live = true;
    setPhase({ step: 'counting' });
    Promise.all(
      folders.map(async (f) => {
        const [files, subfolders] = await Promise.all([filesBeneath(f.folder), action === 'delete' ? foldersBeneath(f.folder) : []]);
        return [folderKey(f.folder), { files, folders: subfolders }] as const;
      }),
    )
      .then((counted) => {
        if (!live) return;
        setInside(new Map(counted));
        setPhase({ step: 'ready' });
      })
      .catch((e: unknown) => live && setPhase({ step: 'count-failed', message: messageOf(e) }));
    return () => {
      live = false;
    };
    // The selection is fixed while the dialog is open; a Retry counts again.
  }, [attempt]);

  const library = libraryOf(items[0]!);
  const places = new Set(items.map(placeOf));
  const here = places.size === 1 ? [...places][0]! : undefined;
  const offered = useCallback(
    (p: string) => p !== here && !items.some((f) => f.kind === 'folder' && (p === f.folder.path || p.startsWith(`${f.folder.path}/`))),
    [here, items],
  );
  const insideCount = [...inside.values()].reduce((n, i) => n + i.files.length, 0);
  /** Every file the action is for: the selected ones and those inside the selected folders, once each. */
  const files = (): ListedResource[] => {
    const all = [...items.flatMap((i) => (i.kind === 'file' ? [i.resource] : [])), ...[...inside.values()].flatMap((i) => i.files)];
    return [...new Map(all.map((f) => [f.id, f])).values()];
  };
  const tags = parseTags(value);
  const destination = destinationPath(value);

  const progress = (total: number) => (done: number) => setPhase({ step: 'running', done, total });
  const finish = (summary: string, failures: Failure[], result: Omit<BulkOutcome, 'action' | 'summary'>) => {
    props.onChanged();
    setOutcome({ action, summary, ...result });
    setPhase({ step: 'summary', summary, failures });
  };

  const runMove = async () => {
    const moved: MoveRecord[] = [];
    const gone: string[] = [];
    setPhase({ step: 'running', done: 0, total: items.length });
    const work = async (item: BulkItem) => {
      moved.push(await moveItem(item, destination));
      gone.push(item.key);
    };
    const failures = await runEach(items, work, (i) => i.name, progress(items.length));
    finish(`Moved ${ofCount(moved.length, items.length, 'item', 'items')} to ${destination || 'the top level'}.`, failures, { moved, gone });
  };

  const runTag = async () => {
    const all = files();
    setPhase({ step: 'running', done: 0, total: all.length });
    const failures = await runEach(all, (f) => addTags(f, tags), (f) => f.display_name, progress(all.length));
    finish(`Tagged ${ofCount(all.length - failures.length, all.length, 'file', 'files')} with ${tags.join(', ')}.`, failures, { moved: [], gone: [] });
  };

  const runDelete = async () => {
    const all = files();
    const total = all.length + folders.length;
    setPhase({ step: 'running', done: 0, total });
    const fileFailures = await runEach(all, deleteFile, (f) => f.display_name, progress(total));
    const failedIds = new Set(fileFailures.map((f) => f.task.id));
    const failures: Failure[] = fileFailures.map(({ name, message }) => ({ name, message }));
    const gone = items.filter((i) => i.kind === 'file' && !failedIds.has(i.resource.id)).map((i) => i.key);
    let foldersGone = 0;
    for (const [n, f] of folders.entries()) {
      const beneath = inside.get(folderKey(f.folder)) ?? { files: [], folders: [] };
      const kept = beneath.files.filter((file) => failedIds.has(file.id));
      if (kept.length > 0) {
        failures.push({ name: f.name, message: `The folder stays: ${kept.length === 1 ? '1 file' : `${kept.length} files`} in it could not be deleted.` });
        for (const path of emptiedFolders(beneath.folders, new Set(kept.map((k) => k.path)))) {
          try {
            await deleteFolder({ library: f.folder.library, path });
          } catch (e) {
            failures.push({ name: path, message: messageOf(e) });
          }
        }
      } else {
        try {
          await deleteFolder(f.folder);
          foldersGone++;
          gone.push(f.key);
        } catch (e) {
          failures.push({ name: f.name, message: messageOf(e) });
        }
      }
      setPhase({ step: 'running', done: all.length + n + 1, total });
    }
    const deleted = `Deleted ${ofCount(all.length - failedIds.size, all.length, 'file', 'files')}`;
    finish(`${deleted}${folders.length > 0 ? ` and ${ofCount(foldersGone, folders.length, 'folder', 'folders')}` : ''}.`, failures, { moved: [], gone });
  };

  const run = () => {
    const work = action === 'move' ? runMove : action === 'tag' ? runTag : runDelete;
    work().catch((e: unknown) => finish('The action stopped.', [{ name: titles[action], message: messageOf(e) }], { moved: [], gone: [] }));
  };

  const ready = phase.step === 'ready';
  const canRun = ready && (action === 'move' ? value.trim() !== '' && destination !== here : action === 'tag' ? tags.length > 0 : true);
  const what = itemsLabel(items);
  const insideText = needsCount && ready ? ` (${filesLabel(insideCount)} inside ${folders.length === 1 ? 'the folder' : 'the folders'})` : '';
  const busy = phase.step === 'running';

  return (
    <Dialog
      title={`${titles[action]} ${what}`}
      isOpen
      role={action === 'delete' ? 'alertdialog' : 'dialog'}
      onOpenChange={(open) => !open && !busy && props.onClose(outcome)}
    >
      <form
        className="action-form bulk-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (canRun) run();
        }}
      >
        {phase.step === 'counting' ? (
          <p role="status">Counting the files inside {folders.length === 1 ? folders[0]!.name : `${folders.length} folders`}…</p>
        ) : null}
        {phase.step === 'count-failed' ? <ErrorMessage>{`Could not count the files inside: ${phase.message}`}</ErrorMessage> : null}
        {phase.step === 'ready' || phase.step === 'counting' || phase.step === 'count-failed' ? (
          action === 'move' ? (
            <FolderCombo library={library} libraryName={props.libraryName} value={value} onChange={setValue} offered={offered} now={here === undefined ? 'several folders' : here || 'the top level'} />
          ) : action === 'tag' ? (
            <Field
              label="Tags to add"
              value={value}
              onChange={setValue}
              autoFocus
              description={`Separate tags with commas. Each of the ${what}${insideText} keeps its tags and gains these.`}
            />
          ) : (
            <p>
              Delete <span className="dialog-subject">{what}</span>
              {insideText}? Every version and its stored bytes are removed; this cannot be undone. A folder is removed once every file in it is.
            </p>
          )
        ) : null}
        {phase.step === 'running' ? (
          <div className="bulk-progress-row">
            <progress className="bulk-progress" max={Math.max(phase.total, 1)} value={phase.done} aria-label={`${titles[action]} progress`} />
            <span role="status">{`${phase.done.toLocaleString()} of ${phase.total.toLocaleString()} done`}</span>
          </div>
        ) : null}
        {phase.step === 'summary' ? (
          <div className="bulk-summary">
            <p role="status">{phase.summary}</p>
            {phase.failures.length > 0 ? (
              <div role="alert">
                <p className="bulk-failed-title">{phase.failures.length === 1 ? '1 failed:' : `${phase.failures.length} failed:`}</p>
                <ul className="bulk-failures" aria-label="What failed">
                  {phase.failures.map((f, i) => (
                    <li key={`${i}:${f.name}`}>
                      <span className="dialog-subject">{f.name}</span>: {f.message}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        ) : null}
        <DialogActions>
          {phase.step === 'summary' ? (
            <Button variant="primary" autoFocus onPress={() => props.onClose(outcome)}>
              Close
            </Button>
          ) : (
            <>
              <Button onPress={() => props.onClose(undefined)} isDisabled={busy}>
                Cancel
              </Button>
              {phase.step === 'count-failed' ? <Button onPress={() => setAttempt((n) => n + 1)}>Retry</Button> : null}
              <Button type="submit" variant={action === 'delete' ? 'danger' : 'primary'} isDisabled={!canRun}>
                {busy ? `${titles[action]}…` : titles[action]}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
