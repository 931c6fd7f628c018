/**
 * The script's source in the editor (CodeMirror, loaded on demand): Save writes a new version with
 * the api's refusals shown as it words them (a syntax error with its line and column, a bound
 * script losing handle naming its endpoint); Run draft runs the text in the editor — unsaved — as
 * the caller, and Run saved version the current version as script:<name>; each shows the run's
 * status, result, console and duration.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Play, Save } from 'lucide-react';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { CodeView, type CodeViewHandle } from '../../resources/editor/CodeView';
import { Badge, Facts, formatDuration } from '../common';
import { runTone, type DraftRun, type ScriptDetail } from './script-model';

export function SourceTab({ script }: { script: ScriptDetail }) {
  const queryClient = useQueryClient();
  const handle = useRef<CodeViewHandle | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [run, setRun] = useState<{ what: string; answer: DraftRun } | undefined>();
  const canEdit = script.allowed_actions.change;
  const text = () => handle.current?.text() ?? script.source ?? '';

  const save = useMutation({
    mutationFn: async () => unwrap(await api.PUT('/api/v1/portal/scripts/{id}', { params: { path: { id: script.id } }, body: { source: text() } })),
    onMutate: () => setSaved(undefined),
    onSuccess: async (answer) => {
      setDirty(false);
      setSaved(answer.outcome === 'unchanged' ? 'Nothing to save: the source and its library versions are the current version’s.' : `Saved as version ${answer.script.current_version}.`);
      queryClient.setQueryData(['script', script.id], answer.script);
      await queryClient.invalidateQueries({ queryKey: ['scripts'] });
    },
  });
  const draft = useMutation({
    mutationFn: async () => {
      const result = await api.POST('/api/v1/portal/scripts/run', { body: { source: text() } });
      // busy (503) carries a run's answer too.
      if (result.response.status === 503 && result.error) return result.error as DraftRun;
      return unwrap(result);
    },
    onSuccess: (answer) => setRun({ what: 'Draft run of the text in the editor (as you)', answer }),
  });
  const saved_run = useMutation({
    mutationFn: async () => {
      const result = await api.POST('/api/v1/portal/scripts/{id}/run', { params: { path: { id: script.id } } });
      if (result.response.status === 503 && result.error) return result.error as DraftRun;
      return unwrap(result);
    },
    onSuccess: async (answer) => {
      setRun({ what: `Run of version ${script.current_version} (as script:${script.name})`, answer });
      await queryClient.invalidateQueries({ queryKey: ['script-runs', script.id] });
    },
  });

  if (!script.allowed_actions.read_source) {
    return <p className="admin-note">A script’s source is shown to its owner and administrators.</p>;
  }
  const runError = draft.error ?? saved_run.error;
  const isScript = script.kind === 'script';
  return (
    <>
      <div className="form-actions">
        {canEdit ? (
          <Button variant="primary" onPress={() => save.mutate()} isDisabled={save.isPending}>
            <Save aria-hidden size={16} /> {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        ) : null}
        <Button onPress={() => draft.mutate()} isDisabled={draft.isPending}>
          <Play aria-hidden size={16} /> Run draft
        </Button>
        {canEdit && isScript ? (
          <Button onPress={() => saved_run.mutate()} isDisabled={saved_run.isPending || script.state !== 'active'}>
            <Play aria-hidden size={16} /> Run saved version
          </Button>
        ) : null}
        {dirty ? <span className="admin-note">Unsaved changes</span> : null}
      </div>
      {save.isError ? <SaveRefusal error={save.error} /> : null}
      {saved ? <StatusMessage>{saved}</StatusMessage> : null}
      <div className="source-layout">
        <div className="source-editor">
          <CodeView
            key={script.id}
            text={script.source ?? ''}
            language="javascript"
            label={`Source of ${script.name}`}
            readOnly={!canEdit}
            handleRef={handle}
            onChange={() => setDirty(true)}
          />
          {!canEdit ? <p className="admin-note">Only its owner and administrators change this script; a draft run runs this text as you.</p> : null}
        </div>
        <div className="source-result">
          {runError ? <ErrorMessage>{`The run was refused: ${messageOf(runError)}`}</ErrorMessage> : null}
          {run ? <RunResult what={run.what} answer={run.answer} /> : <p className="admin-note">Run draft runs the text in the editor, saved or not; its console and result show here.</p>}
        </div>
      </div>
    </>
  );
}

function SaveRefusal({ error }: { error: unknown }) {
  if (!(error instanceof ApiError)) return <ErrorMessage>{`Not saved: ${messageOf(error)}`}</ErrorMessage>;
  const where = typeof error.details.line === 'number' ? ` (line ${String(error.details.line)}, column ${String(error.details.column)})` : '';
  return <ErrorMessage>{`Not saved: ${error.message}${where}`}</ErrorMessage>;
}

export function RunResult({ what, answer }: { what: string; answer: DraftRun }) {
  return (
    <section className="admin-card" aria-labelledby="run-result-title" aria-live="polite">
      <h3 id="run-result-title">{what}</h3>
      <Facts
        items={[
          ['Status', <Badge tone={runTone(answer.status)}>{answer.status}</Badge>],
          ['Duration', formatDuration(answer.duration_ms)],
          ['Run', <code className="admin-inline-code">{answer.run_id}</code>],
          ...(answer.error ? ([['Error', <span className="admin-inline-code">{answer.error}</span>]] as Array<[string, ReactNode]>) : []),
        ]}
      />
      {answer.status === 'ok' ? (
        <>
          <h4>Result</h4>
          <pre className="console" aria-label="Result">
            {JSON.stringify(answer.result ?? null, null, 2)}
          </pre>
        </>
      ) : null}
      <h4>Console</h4>
      <pre className="console" aria-label="Console output">
        {answer.console || '(nothing logged)'}
      </pre>
    </section>
  );
}
