/**
 * The script's schedule (docs/scripts.md, "Schedules"): a cron expression or an interval in a
 * time zone; create or replace, pause and resume, remove — the owner and administrators (the
 * api's allowed_actions.change); the api's refusal of a cron or zone shown as it words it.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { ErrorMessage, StatusMessage } from '../../ui/Alert';
import { Badge, Facts, QueryState, Time } from '../common';
import { RadioGroupField } from '../form';
import type { Schedule, ScriptDetail } from './script-model';

function useSchedule(id: string) {
  return useQuery({
    queryKey: ['script-schedule', id],
    queryFn: async (): Promise<Schedule | null> => {
      try {
        return unwrap(await api.GET('/api/v1/portal/scripts/{id}/schedule', { params: { path: { id } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

function every(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}

export function ScheduleTab({ script }: { script: ScriptDetail }) {
  const schedule = useSchedule(script.id);
  if (script.kind === 'library') return <p className="admin-note">A library is not scheduled: scripts import it.</p>;
  return (
    <>
      <QueryState query={schedule} what="the schedule" />
      {schedule.isSuccess ? <ScheduleView script={script} schedule={schedule.data} /> : null}
    </>
  );
}

function ScheduleView({ script, schedule }: { script: ScriptDetail; schedule: Schedule | null }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'cron' | 'every'>(schedule?.interval_ms !== undefined ? 'every' : 'cron');
  const [cron, setCron] = useState(schedule?.cron ?? '');
  const [interval, setInterval] = useState(schedule?.interval_ms !== undefined ? every(schedule.interval_ms) : '');
  const [zone, setZone] = useState(schedule?.time_zone ?? 'UTC');
  const [notice, setNotice] = useState<string | undefined>();
  const canChange = script.allowed_actions.change;
  const path = { params: { path: { id: script.id } } };
  const done = async (text: string) => {
    setNotice(text);
    await queryClient.invalidateQueries({ queryKey: ['script-schedule', script.id] });
  };
  const save = useMutation({
    mutationFn: async () => unwrap(await api.PUT('/api/v1/portal/scripts/{id}/schedule', { ...path, body: kind === 'cron' ? { cron, time_zone: zone } : { every: interval, time_zone: zone } })),
    onSuccess: () => done('Schedule saved.'),
  });
  const toggle = useMutation({
    mutationFn: async (pause: boolean) =>
      unwrap(pause ? await api.POST('/api/v1/portal/scripts/{id}/schedule/pause', path) : await api.POST('/api/v1/portal/scripts/{id}/schedule/resume', path)),
    onSuccess: (s) => done(s.paused ? 'Paused: no runs until it is resumed.' : 'Resumed.'),
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/portal/scripts/{id}/schedule', path)),
    onSuccess: () => done('Schedule removed.'),
  });
  const error = save.error ?? toggle.error ?? remove.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <>
      {notice ? <StatusMessage>{notice}</StatusMessage> : null}
      {error ? <ErrorMessage>{`Refused: ${messageOf(error)}`}</ErrorMessage> : null}
      {schedule ? (
        <Facts
          items={[
            ['Runs', schedule.cron !== undefined ? <code className="admin-inline-code">{schedule.cron}</code> : `every ${every(schedule.interval_ms ?? 0)}`],
            ['Time zone', schedule.time_zone],
            ['State', schedule.paused ? <Badge tone="off">paused</Badge> : <Badge tone="ok">running</Badge>],
            ['Changed', <><Time at={schedule.updated_at} /> by {schedule.updated_by}</>],
          ]}
        />
      ) : (
        <p className="admin-note">No schedule: the script runs only when someone runs it.</p>
      )}
      {canChange ? (
        <form className="form-stack" onSubmit={submit} aria-label="Schedule">
          <RadioGroupField
            legend={schedule ? 'Replace the schedule' : 'Schedule it'}
            name="schedule-kind"
            value={kind}
            onChange={(v) => setKind(v as 'cron' | 'every')}
            options={[
              { value: 'cron', label: 'Cron expression', description: 'minute hour day-of-month month day-of-week, or @hourly, @daily, …' },
              { value: 'every', label: 'Interval', description: 'e.g. 15m or 6h; at least 1m' },
            ]}
          />
          <div className="form-grid">
            {kind === 'cron' ? <Field label="Cron" value={cron} onChange={setCron} description="e.g. 0 6 * * 1-5" /> : <Field label="Every" value={interval} onChange={setInterval} description="e.g. 15m" />}
            <Field label="Time zone" value={zone} onChange={setZone} description="IANA, e.g. Europe/Berlin; the cron is read in it" />
          </div>
          <div className="form-actions">
            <Button type="submit" variant="primary" isDisabled={save.isPending}>
              Save schedule
            </Button>
            {schedule ? (
              <>
                <Button onPress={() => toggle.mutate(!schedule.paused)} isDisabled={toggle.isPending}>
                  {schedule.paused ? 'Resume' : 'Pause'}
                </Button>
                <Button variant="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
                  Remove schedule
                </Button>
              </>
            ) : null}
          </div>
        </form>
      ) : null}
    </>
  );
}
