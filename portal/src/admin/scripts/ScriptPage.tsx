/**
 * A script's page (docs/scripts.md, docs/endpoints.md): its state and owner, and tabs for the
 * source (the editor, save with the api's refusals, draft run with console and result), versions
 * with a diff, runs, the schedule, and the endpoint binding with its failed requests of the last
 * seven days. Every control follows what the api answers: allowed_actions for changes, GET
 * /api/v1/admin/access for an administrator's acts (binding), and a refusal shows the api's words.
 */
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Trash2 } from 'lucide-react';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { AdminPage, Badge, Facts, QueryState, Time } from '../common';
import { useAdminAccess } from '../access';
import { scriptStateTone, type ScriptDetail } from './script-model';
import { SourceTab } from './SourceTab';
import { VersionsTab } from './VersionsTab';
import { RunsTab } from './RunsTab';
import { ScheduleTab } from './ScheduleTab';
import { EndpointTab } from './EndpointTab';

const TABS = ['source', 'versions', 'runs', 'schedule', 'endpoint'] as const;
type TabKey = (typeof TABS)[number];

export function useScript(id: string) {
  return useQuery({ queryKey: ['script', id], queryFn: async () => unwrap(await api.GET('/api/v1/portal/scripts/{id}', { params: { path: { id } } })) });
}

export function ScriptPage() {
  const id = useParams().id!;
  const script = useScript(id);
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabKey) : 'source';
  const admin = useAdminAccess();
  const [notice, setNotice] = useState<string | undefined>();
  const data = script.data;
  return (
    <AdminPage
      title={data?.name ?? 'Script'}
      back={{ to: '/admin/scripts', label: 'Scripts' }}
      description={
        data ? (
          <>
            <Badge tone={scriptStateTone(data.state)}>{data.state}</Badge> {data.kind} · owner {data.owner.email ?? data.owner.subject} · version {data.current_version}
          </>
        ) : undefined
      }
      actions={data?.allowed_actions.change ? <StateActions script={data} announce={setNotice} /> : null}
    >
      {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      <QueryState query={script} what="the script" />
      {data ? (
        <>
          <Facts
            items={[
              ['Entry points', data.entry_points.join(', ') || 'none (a library)'],
              ['Imports', data.imports.join(', ') || 'none'],
              ['Superseded by', data.superseded_by ? data.superseded_by.name : null],
              ['Created', <Time at={data.created_at} />],
              ['Updated', <Time at={data.updated_at} />],
            ]}
          />
          <Tabs selectedKey={tab} onSelectionChange={(key) => setParams((p) => ({ ...Object.fromEntries(p), tab: String(key) }), { replace: true })}>
            <TabList aria-label="Script" className="tabs">
              <Tab id="source" className="tab">
                Source
              </Tab>
              <Tab id="versions" className="tab">
                Versions ({data.versions.length})
              </Tab>
              <Tab id="runs" className="tab">
                Runs
              </Tab>
              <Tab id="schedule" className="tab">
                Schedule
              </Tab>
              <Tab id="endpoint" className="tab">
                Endpoint
              </Tab>
            </TabList>
            <TabPanel id="source" className="tab-panel">
              <SourceTab script={data} />
            </TabPanel>
            <TabPanel id="versions" className="tab-panel">
              <VersionsTab script={data} />
            </TabPanel>
            <TabPanel id="runs" className="tab-panel">
              <RunsTab script={data} administrator={admin.data === true} />
            </TabPanel>
            <TabPanel id="schedule" className="tab-panel">
              <ScheduleTab script={data} />
            </TabPanel>
            <TabPanel id="endpoint" className="tab-panel">
              <EndpointTab script={data} administrator={admin.data === true} />
            </TabPanel>
          </Tabs>
        </>
      ) : null}
    </AdminPage>
  );
}

function StateActions({ script, announce }: { script: ScriptDetail; announce(text: string): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const change = useMutation({
    mutationFn: async (action: 'disable' | 'enable' | 'deprecate') => {
      const path = { params: { path: { id: script.id } } };
      if (action === 'disable') return unwrap(await api.POST('/api/v1/portal/scripts/{id}/disable', path));
      if (action === 'enable') return unwrap(await api.POST('/api/v1/portal/scripts/{id}/enable', path));
      return unwrap(await api.POST('/api/v1/portal/scripts/{id}/deprecate', path));
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['script', script.id] });
      await queryClient.invalidateQueries({ queryKey: ['scripts'] });
      announce(`The script is ${saved.state} now.`);
    },
    onError: (error) => announce(`Not changed: ${messageOf(error)}`),
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/portal/scripts/{id}', { params: { path: { id: script.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['scripts'] });
      navigate('/admin/scripts');
    },
  });
  return (
    <>
      {script.state !== 'active' ? (
        <Button onPress={() => change.mutate('enable')} isDisabled={change.isPending}>
          Enable
        </Button>
      ) : null}
      {script.state === 'active' || script.state === 'deprecated' ? (
        <Button onPress={() => change.mutate('disable')} isDisabled={change.isPending}>
          Disable
        </Button>
      ) : null}
      {script.state === 'active' || script.state === 'disabled' ? (
        <Button onPress={() => change.mutate('deprecate')} isDisabled={change.isPending}>
          Deprecate
        </Button>
      ) : null}
      <Button variant="danger" onPress={() => setDeleting(true)}>
        <Trash2 aria-hidden size={16} /> Delete
      </Button>
      <Dialog title={`Delete ${script.name}?`} role="alertdialog" isOpen={deleting} onOpenChange={setDeleting}>
        <p>The script and every version go; its name is retired and never given to another script.</p>
        {remove.isError ? <ErrorMessage>{remove.error instanceof ApiError ? remove.error.message : messageOf(remove.error)}</ErrorMessage> : null}
        <DialogActions>
          <Button onPress={() => setDeleting(false)} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
            Delete script
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
