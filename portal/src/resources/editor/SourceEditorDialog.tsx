/**
 * The source editor: the file's text in an editable CodeMirror view (loaded on demand), in a wide
 * dialog. Save — the button, or Ctrl/Cmd-S anywhere in the dialog — writes the text as a new
 * version (PUT /api/v1/resources/{id}/source, which labels it "edited in the portal") and says which
 * version it became. The write names the version the text was loaded from: when someone else wrote
 * a newer one since, the api refuses it (409, nothing stored) and the dialog says so, saving only
 * when asked again (or reloading their version). Closing with unsaved changes — Close,
 * Escape, a click outside, Back, leaving the page — asks first.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useBlocker } from 'react-router';
import { Save } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { contentKind, type EditorLanguage } from '../preview/content-kind';
import { fetchResource, fetchTextContent, resourceKey, textContentKey, useTextContent } from '../preview/queries';
import { CodeView, type CodeViewHandle } from './CodeView';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const saveKeys = isMac ? '⌘S' : 'Ctrl+S';

/** Query keys a new version leaves untouched: the session, the brand, and content keyed by version. */
const unaffected = new Set(['session', 'portal-settings', 'resource-content', 'thumbnail-tile', 'picture']);

export function SourceEditorDialog(props: { resource: Resource; isOpen: boolean; onClose(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [dirty, setDirty] = useState(false);
  const handleRef = useRef<CodeViewHandle | null>(null);
  const blocker = useBlocker(props.isOpen && dirty);

  useEffect(() => {
    if (!(props.isOpen && dirty)) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [props.isOpen, dirty]);

  const requestClose = () => {
    if (dirty) setConfirming(true);
    else props.onClose();
  };
  const keepEditing = () => {
    setConfirming(false);
    if (blocker.state === 'blocked') blocker.reset();
    // The editor's text lives in a shadow root: hand focus back to it explicitly.
    requestAnimationFrame(() => handleRef.current?.focus());
  };
  const discard = () => {
    setConfirming(false);
    setDirty(false);
    if (blocker.state === 'blocked') blocker.proceed();
    props.onClose();
  };

  return (
    <>
      <Dialog title={`Edit source: ${props.resource.file_name}`} isOpen={props.isOpen} onOpenChange={(open) => (open ? undefined : requestClose())} wide>
        <SourceEditor resource={props.resource} handleRef={handleRef} onDirtyChange={setDirty} onClose={requestClose} />
      </Dialog>
      <Dialog
        title="Discard unsaved changes?"
        role="alertdialog"
        isOpen={confirming || blocker.state === 'blocked'}
        onOpenChange={(open) => (open ? undefined : keepEditing())}
      >
        <p className="dialog-text">
          Your changes to {props.resource.file_name} are not saved. Discarding them cannot be undone.
        </p>
        <DialogActions>
          <Button onPress={keepEditing} autoFocus>
            Keep editing
          </Button>
          <Button variant="danger" onPress={discard}>
            Discard changes
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

interface Loaded {
  /** The text as last loaded or saved (the editor is dirty when it differs). */
  saved: string;
  /** The version that text is. */
  version: number;
  /** Remounts the view with `saved` (a reload). */
  generation: number;
}

function SourceEditor(props: { resource: Resource; handleRef: MutableRefObject<CodeViewHandle | null>; onDirtyChange(dirty: boolean): void; onClose(): void }) {
  const { resource } = props;
  const queryClient = useQueryClient();
  const content = useTextContent(resource, true);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [dirty, setDirtyState] = useState(false);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [conflict, setConflict] = useState<Resource | undefined>();
  const language: EditorLanguage = (() => {
    const kind = contentKind(resource);
    return kind.kind === 'text' ? kind.language : 'plain';
  })();

  useEffect(() => {
    if (!loaded && content.data && 'text' in content.data) setLoaded({ saved: content.data.text, version: resource.version, generation: 0 });
  }, [content.data, loaded, resource.version]);

  const setDirty = (value: boolean) => {
    setDirtyState(value);
    props.onDirtyChange(value);
  };

  async function save(options: { overwrite?: boolean } = {}) {
    const view = props.handleRef.current;
    if (!loaded || !view || saving) return;
    const text = view.text();
    if (text === loaded.saved) {
      setStatus('No changes to save.');
      return;
    }
    setSaving(true);
    setError(undefined);
    setStatus('Saving…');
    try {
      // The api writes only over the version this text was loaded from (409 otherwise, nothing
      // stored); "Save anyway" writes over the head the conflict showed.
      const base = options.overwrite && conflict ? conflict.version : loaded.version;
      const answer = await api.PUT('/api/v1/resources/{id}/source', {
        params: { path: { id: resource.id }, query: { base_version: base } },
        body: text,
        bodySerializer: (body) => body as string,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
      if (answer.response.status === 409) {
        setConflict(await fetchResource(resource.id));
        setStatus('');
        return;
      }
      const saved = unwrap(answer);
      setConflict(undefined);
      setLoaded((current) => ({ saved: text, version: saved.version, generation: current?.generation ?? 0 }));
      setDirty(view.text() !== text);
      setStatus(`Saved as version ${saved.version}.`);
      // The new head everywhere it shows: its text, its details (the thumbnail state comes with the refetch), lists and counts.
      queryClient.setQueryData(textContentKey(saved), { text });
      queryClient.setQueryData<Resource>(resourceKey(resource.id), (old) => (old ? { ...saved, thumbnail: old.thumbnail } : old));
      void queryClient.invalidateQueries({ predicate: (query) => !unaffected.has(String(query.queryKey[0])) });
    } catch (failure) {
      setError(messageOf(failure));
      setStatus('');
    } finally {
      setSaving(false);
    }
  }

  async function reloadTheirs() {
    if (!conflict) return;
    setError(undefined);
    try {
      const theirs = await queryClient.fetchQuery({ queryKey: textContentKey(conflict), queryFn: () => fetchTextContent(conflict.id), staleTime: Infinity });
      if (!('text' in theirs)) {
        setError(`Version ${conflict.version} is not UTF-8 text, so it cannot be edited here.`);
        return;
      }
      setLoaded((current) => ({ saved: theirs.text, version: conflict.version, generation: (current?.generation ?? 0) + 1 }));
      setDirty(false);
      setConflict(undefined);
      setStatus(`Loaded version ${conflict.version}.`);
      void queryClient.invalidateQueries({ queryKey: resourceKey(resource.id) });
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      event.stopPropagation();
      void save();
    }
  };

  let body;
  if (content.isError) body = <ErrorMessage>{messageOf(content.error)}</ErrorMessage>;
  else if (content.data && 'notText' in content.data) body = <ErrorMessage>This file is not UTF-8 text, so it cannot be edited here. Download it to change it.</ErrorMessage>;
  else if (!loaded) body = <p className="loading">Loading the text…</p>;
  else
    body = (
      <CodeView
        key={loaded.generation}
        text={loaded.saved}
        language={language}
        label={`Source of ${resource.file_name}`}
        autoFocus
        handleRef={props.handleRef}
        onChange={(text) => {
          setDirty(text !== loaded.saved);
          if (status) setStatus('');
        }}
      />
    );

  return (
    // Ctrl/Cmd-S saves wherever focus is in the dialog (the editor's text, a button) and never opens the browser's Save page.
    <div className="source-editor" onKeyDown={onKeyDown}>
      <p className="source-editor-meta">
        <span>
          Type <code>{resource.content_type}</code>
        </span>
        <span>{loaded ? `Version ${loaded.version}` : `Version ${resource.version}`}</span>
        <span>Saving writes a new version.</span>
      </p>
      {conflict ? (
        <div className="source-editor-conflict" role="alert">
          <p>
            This file changed since you opened it: it is now version {conflict.version}. Saving anyway replaces that version's text with
            yours (it stays in the version history); reloading discards your changes.
          </p>
          <DialogActions>
            <Button variant="danger" onPress={() => void save({ overwrite: true })} isDisabled={saving}>
              Save anyway
            </Button>
            <Button onPress={() => void reloadTheirs()} isDisabled={saving}>
              Reload version {conflict.version}
            </Button>
          </DialogActions>
        </div>
      ) : null}
      {body}
      <div className="source-editor-status">
        {dirty ? <p className="source-editor-dirty">Unsaved changes</p> : null}
        <StatusMessage>{status}</StatusMessage>
      </div>
      <ErrorMessage>{error}</ErrorMessage>
      <div className="source-editor-footer">
        <p className="source-editor-hint">
          <kbd>{saveKeys}</kbd> saves · <kbd>Esc</kbd> closes
        </p>
        <DialogActions>
          <Button onPress={props.onClose}>Close</Button>
          <Button variant="primary" onPress={() => void save()} isDisabled={!loaded || saving || !dirty}>
            <Save aria-hidden size={16} /> {saving ? 'Saving…' : 'Save'}
          </Button>
        </DialogActions>
      </div>
    </div>
  );
}
