/**
 * The Upload dialog (spec document 2, "Upload rules in the portal"): the top-level folder (only
 * those the api lets the person add to), the folder, and for one file its display name (the file
 * name without extension by default), description and tags; for a batch the tags and a description
 * in which `{name}` stands for each file's display name, the files' own folders becoming folders
 * beneath the chosen one. Files come from the file picker, the folder picker, a drop (here or onto
 * a folder of the file manager) and zip archives, unpacked here. System files are left out and
 * counted; limits are refused before anything is sent. Uploading shows each file's progress and
 * outcome, the batch's progress, Cancel and Retry failed; `if_exists` is the batch's choice.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { FilePlus, FolderUp } from 'lucide-react';
import { messageOf } from '../../api/client';
import { usePortalSettings } from '../../app/settings';
import { ErrorMessage } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { formatBytes } from '../../ui/format';
import { folderRule } from '../dialogs/ActionDialog';
import { BatchList, BatchProgress, outcomeSummary } from './BatchList';
import type { AddableLibrary, UploadRequest } from './context';
import { UploadQueue, type FormFor } from './queue';
import { batchRefusal, describeWith, folderOf, parseTags, systemFilesNote } from './rules';
import { batchOf, pickedFromDrop, pickedFromInput, type BatchItem, type Picked } from './sources';
import './upload.css';

type IfExists = 'fail' | 'skip_unchanged';

interface Settings {
  library: string;
  base: string;
  single: boolean;
  displayName: string;
  description: string;
  tags: string;
  ifExists: IfExists;
}

/** The form fields of one file as the batch stands (read when it is sent, so a retry takes changed settings). */
function formOf(s: Settings, item: BatchItem): ReturnType<FormFor> {
  const folder = folderOf(s.base, item.dirs);
  if (!folder.ok) return { refusal: folder.reason };
  const displayName = s.single && s.displayName.trim() ? s.displayName.trim() : item.displayName;
  const description = s.single ? s.description : describeWith(s.description, displayName);
  const fields: Array<[string, string]> = [
    ['library', s.library],
    ['path', folder.path],
    ['display_name', displayName],
  ];
  if (description.trim()) fields.push(['description', description]);
  for (const tag of parseTags(s.tags)) fields.push(['tags', tag]);
  fields.push(['if_exists', s.ifExists]);
  return { fields };
}

export function UploadDialog(props: { request: UploadRequest; libraries: AddableLibrary[]; onUploaded(): Promise<unknown>; onClose(): void }) {
  const { request, libraries } = props;
  const settingsAnswer = usePortalSettings();
  const maxUploadBytes = settingsAnswer.data?.max_upload_bytes;
  const initialLibrary = request.target && libraries.some((l) => l.library === request.target!.library) ? request.target.library : (libraries[0]?.library ?? '');
  const [settings, setSettings] = useState<Settings>({
    library: initialLibrary,
    base: request.target && request.target.library === initialLibrary ? request.target.path : '',
    single: false,
    displayName: '',
    description: '',
    tags: '',
    ifExists: 'fail',
  });
  const set = (change: Partial<Settings>) => setSettings((s) => ({ ...s, ...change }));
  const [items, setItems] = useState<BatchItem[]>([]);
  const [system, setSystem] = useState(0);
  const [reading, setReading] = useState(0);
  const [readError, setReadError] = useState<string | undefined>();
  const [queue, setQueue] = useState<UploadQueue | null>(null);
  const [summary, setSummary] = useState('');
  const version = useSyncExternalStore(queue?.subscribe ?? noSubscribe, queue?.getVersion ?? zero);
  const running = queue?.running ?? false;
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLDivElement>(null);

  const single = items.length === 1 && items[0]!.dirs.length === 0 && !items[0]!.shown.includes('/');
  useEffect(() => {
    setSettings((s) => (s.single === single ? s : { ...s, single, displayName: single ? items[0]!.displayName : '' }));
  }, [single, items]);

  /** Adds picked files to the batch (zip archives unpacked, system files counted, limits checked). */
  const add = async (picked: Promise<Picked[]> | Picked[]) => {
    if (maxUploadBytes === undefined) return;
    setReading((n) => n + 1);
    setReadError(undefined);
    try {
      const part = await batchOf(await picked, maxUploadBytes);
      setItems((current) => [...current, ...part.items]);
      setSystem((n) => n + part.system);
    } catch (e) {
      setReadError(`The files could not be read: ${messageOf(e)}`);
    } finally {
      setReading((n) => n - 1);
    }
  };

  // The files of a drop onto a folder come with the request; once read, Upload has focus (Enter sends).
  const dropped = useRef(false);
  const [focusSend, setFocusSend] = useState(false);
  useEffect(() => {
    if (!request.picked || dropped.current || maxUploadBytes === undefined) return;
    dropped.current = true;
    void add(request.picked).then(() => setFocusSend(true));
    // Once, when the limit is known (add is stable enough: it reads only setters and the limit).
  }, [request.picked, maxUploadBytes]);
  useEffect(() => {
    if (!focusSend || reading > 0) return;
    setFocusSend(false);
    // After the dialog's own first focus (its focus scope moves focus in on the next frame).
    requestAnimationFrame(() => setTimeout(() => formRef.current?.querySelector<HTMLButtonElement>('.upload-send:not([disabled])')?.focus()));
  }, [focusSend, reading]);

  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);

  // Upload and Retry failed give way to Cancel upload while the batch runs: focus goes onto it (and
  // onto Close, autofocused, once the batch ends), never lost with the button that was pressed.
  useEffect(() => {
    if (running) formRef.current?.querySelector<HTMLButtonElement>('.upload-cancel')?.focus();
  }, [running]);

  const tooMany = batchRefusal(items.length);
  const sendable = items.filter((i) => !i.refusal).length;
  const totalBytes = useMemo(() => items.reduce((sum, i) => sum + (i.refusal ? 0 : i.size), 0), [items]);
  const failed = queue ? queue.progress().counts.failed : 0;
  const libraryName = libraries.find((l) => l.library === settings.library)?.name;

  const start = async () => {
    if (tooMany || sendable === 0 || !settings.library) return;
    const q = new UploadQueue(items, (item) => formOf(settingsRef.current, item));
    setQueue(q);
    setSummary('');
    await q.start();
    setSummary(outcomeSummary(q));
    await props.onUploaded();
  };
  const retry = async () => {
    if (!queue) return;
    setSummary('');
    await queue.retryFailed();
    setSummary(outcomeSummary(queue));
    await props.onUploaded();
  };

  const close = () => {
    if (running) return;
    props.onClose();
  };

  return (
    <Dialog title={libraryName ? `Upload to ${libraryName}` : 'Upload'} isOpen wide onOpenChange={(open) => !open && close()}>
      <div
        ref={formRef}
        className="upload-form"
        onDragOver={(e) => {
          if (!queue && Array.from(e.dataTransfer.types).includes('Files')) e.preventDefault();
        }}
        onDrop={(e) => {
          if (queue || !Array.from(e.dataTransfer.types).includes('Files')) return;
          e.preventDefault();
          void add(pickedFromDrop(e.dataTransfer));
        }}
      >
        {libraries.length === 0 ? <ErrorMessage>There is no top-level folder you may add files to.</ErrorMessage> : null}
        <div className="upload-where">
          <label className="field">
            <span className="field-label">Top-level folder</span>
            <select className="field-input" value={settings.library} onChange={(e) => set({ library: e.target.value })} disabled={running}>
              {libraries.map((l) => (
                <option key={l.library} value={l.library}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <Field label="Folder" value={settings.base} onChange={(base) => set({ base })} isDisabled={running} description={`Empty: the top level. ${folderRule}`} />
        </div>
        {!queue ? (
          <div className="upload-pick">
            <input ref={filesInput} type="file" multiple hidden aria-label="Files to upload" onChange={(e) => e.target.files && void add(pickedFromInput(e.target.files)).then(() => (e.target.value = ''))} />
            <input ref={folderInput} type="file" multiple hidden aria-label="Folder to upload" onChange={(e) => e.target.files && void add(pickedFromInput(e.target.files)).then(() => (e.target.value = ''))} />
            <Button onPress={() => filesInput.current?.click()} isDisabled={maxUploadBytes === undefined}>
              <FilePlus aria-hidden size={16} /> Add files…
            </Button>
            <Button onPress={() => folderInput.current?.click()} isDisabled={maxUploadBytes === undefined}>
              <FolderUp aria-hidden size={16} /> Add a folder…
            </Button>
            <span className="upload-hint">or drop files, folders and zip archives here. Zip archives are unpacked.</span>
          </div>
        ) : null}
        <div className="upload-where">
          {single ? (
            <Field label="Display name" value={settings.displayName} onChange={(displayName) => set({ displayName })} isDisabled={running} />
          ) : (
            <Field
              label="Description"
              value={settings.description}
              onChange={(description) => set({ description })}
              isDisabled={running}
              description="{name} stands for each file's display name (its file name without extension)."
            />
          )}
          <Field label="Tags" value={settings.tags} onChange={(tags) => set({ tags })} isDisabled={running} description="Comma-separated." />
        </div>
        {single ? <Field label="Description" value={settings.description} onChange={(description) => set({ description })} isDisabled={running} multiline /> : null}
        <label className="field upload-if-exists">
          <span className="field-label">If a file of that name is already there</span>
          <select className="field-input" value={settings.ifExists} onChange={(e) => set({ ifExists: e.target.value as IfExists })} disabled={running}>
            <option value="fail">Refuse it (409)</option>
            <option value="skip_unchanged">Skip it if unchanged, else add a version</option>
          </select>
        </label>
        <p className="upload-counts" role="status">
          {reading > 0
            ? 'Reading the files…'
            : items.length > 0
              ? [`${items.length.toLocaleString()} ${items.length === 1 ? 'file' : 'files'}, ${formatBytes(totalBytes)}`, systemFilesNote(system)].filter(Boolean).join(' · ')
              : [systemFilesNote(system) || 'No files chosen yet.'].join('')}
        </p>
        <ErrorMessage>{tooMany ?? readError}</ErrorMessage>
        {items.length > 0 ? <BatchList items={items} queue={queue} version={version} /> : null}
        {queue ? <BatchProgress queue={queue} version={version} /> : null}
        {summary ? (
          <p className="upload-summary" role="status">
            {summary}
          </p>
        ) : null}
        <DialogActions>
          {!queue ? (
            <>
              <Button onPress={close}>Cancel</Button>
              <Button
                className="upload-send"
                variant="primary"
                onPress={() => void start()}
                isDisabled={reading > 0 || !!tooMany || sendable === 0 || !settings.library}
              >
                {`Upload ${sendable.toLocaleString()} ${sendable === 1 ? 'file' : 'files'}`}
              </Button>
            </>
          ) : running ? (
            <Button variant="danger" className="upload-cancel" onPress={() => queue.cancel()}>
              Cancel upload
            </Button>
          ) : (
            <>
              {failed > 0 ? <Button onPress={() => void retry()}>{`Retry failed (${failed})`}</Button> : null}
              <Button variant="primary" onPress={close} autoFocus>
                Close
              </Button>
            </>
          )}
        </DialogActions>
      </div>
    </Dialog>
  );
}

const noSubscribe = () => () => undefined;
const zero = () => 0;
