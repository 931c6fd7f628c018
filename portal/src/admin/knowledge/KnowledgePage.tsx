/**
 * Knowledge review (docs/knowledge.md): the insights agents captured (capture_insight), by status
 * (pending first), category and entity, oldest first; each with what it says, what it is about,
 * the changes it suggests and who captured it. Approve and Reject are offered as the api says an
 * insight takes them (`allowed_actions`), each with review notes. Applying approved knowledge to the
 * catalog is the apply_knowledge tool's.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, messageOf, unwrap } from '../../api/client';
import type { Answer } from '../../api/types';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/Alert';
import { AdminPage, Badge, Empty, QueryState, Time, formatCount } from '../common';
import { SelectField } from '../form';
import './knowledge.css';

type Page = Answer<'listInsights'>;
type Insight = Page['insights'][number];
type Status = Insight['status'];
type Category = Insight['category'];
type Decision = Insight['allowed_actions'][number];

const PAGE_SIZE = 20;
const STATUSES: ReadonlyArray<{ value: Status; label: string }> = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'applied', label: 'Applied' },
  { value: 'rolled_back', label: 'Rolled back' },
  { value: 'superseded', label: 'Superseded' },
];
const CATEGORIES: ReadonlyArray<{ value: Category | ''; label: string }> = [
  { value: '', label: 'Any category' },
  { value: 'correction', label: 'Correction' },
  { value: 'business_context', label: 'Business context' },
  { value: 'data_quality', label: 'Data quality' },
  { value: 'usage_guidance', label: 'Usage guidance' },
  { value: 'relationship', label: 'Relationship' },
  { value: 'enhancement', label: 'Enhancement' },
];
const categoryLabel = (c: Category) => CATEGORIES.find((x) => x.value === c)?.label ?? c;
const confidenceTone = { high: 'ok', medium: 'info', low: 'warn' } as const;

interface Filters {
  status: Status;
  category: Category | '';
  entity: string;
}

export function KnowledgePage() {
  const [filters, setFilters] = useState<Filters>({ status: 'pending', category: '', entity: '' });
  const [offset, setOffset] = useState(0);
  const [deciding, setDeciding] = useState<{ insight: Insight; decision: Decision } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const page = useQuery({
    queryKey: ['insights', filters, offset],
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/portal/admin/insights', {
          params: { query: { status: filters.status, limit: PAGE_SIZE, offset, ...(filters.category ? { category: filters.category } : {}), ...(filters.entity ? { entity: filters.entity } : {}) } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  // The decided insight may leave the list: focus moves to what was done, never to nothing.
  useEffect(() => {
    if (notice) requestAnimationFrame(() => noticeRef.current?.focus());
  }, [notice]);
  return (
    <AdminPage
      title="Knowledge"
      description="Insights agents captured about catalog entities (capture_insight), for review. Approved insights are applied to the catalog with the apply_knowledge tool, as changesets that can be rolled back."
    >
      <KnowledgeFilters
        initial={filters}
        onApply={(next) => {
          setFilters(next);
          setOffset(0);
          setNotice(undefined);
        }}
      />
      <p ref={noticeRef} tabIndex={-1} className="status-message knowledge-notice" role="status">
        {notice}
      </p>
      <QueryState query={page} what="the insights" />
      {page.data ? (
        <>
          <p className="admin-note">
            {formatCount(page.data.total)} {STATUSES.find((s) => s.value === filters.status)?.label.toLowerCase()} insight{page.data.total === 1 ? '' : 's'}
            {page.data.total > 0 ? `, ${page.data.offset + 1}–${page.data.offset + page.data.insights.length} shown (oldest first)` : ''}
          </p>
          {page.data.insights.length === 0 ? <Empty>No insight matches.</Empty> : null}
          <ul className="insight-list" aria-label="Insights" aria-busy={page.isFetching}>
            {page.data.insights.map((insight) => (
              <li key={insight.id}>
                <InsightCard insight={insight} onDecide={(decision) => setDeciding({ insight, decision })} />
              </li>
            ))}
          </ul>
          {page.data.total > PAGE_SIZE ? (
            <div className="pager">
              <Button onPress={() => setOffset(Math.max(0, offset - PAGE_SIZE))} isDisabled={offset === 0}>
                Previous
              </Button>
              <Button onPress={() => page.data?.next_offset !== null && setOffset(page.data!.next_offset!)} isDisabled={page.data.next_offset === null}>
                Next
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
      {deciding ? (
        <DecisionDialog
          {...deciding}
          onClose={(text) => {
            setDeciding(undefined);
            if (text) setNotice(text);
          }}
        />
      ) : null}
    </AdminPage>
  );
}

function KnowledgeFilters({ initial, onApply }: { initial: Filters; onApply(filters: Filters): void }) {
  const [status, setStatus] = useState<Status>(initial.status);
  const [category, setCategory] = useState<Category | ''>(initial.category);
  const [entity, setEntity] = useState(initial.entity);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ status, category, entity: entity.trim() });
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filter the insights">
      <SelectField<Status> label="Status" value={status} onChange={(v) => setStatus(v)} options={STATUSES} />
      <SelectField<Category | ''> label="Category" value={category} onChange={(v) => setCategory(v)} options={CATEGORIES} />
      <Field label="Entity" value={entity} onChange={setEntity} description="A catalog URN the insight is about" />
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
    </form>
  );
}

function InsightCard({ insight, onDecide }: { insight: Insight; onDecide(decision: Decision): void }) {
  const headingId = `insight-${insight.id}`;
  return (
    <article className="admin-card insight-card" aria-labelledby={headingId}>
      <header className="insight-head">
        <h2 id={headingId} className="insight-title">
          {categoryLabel(insight.category)}
        </h2>
        <Badge tone={confidenceTone[insight.confidence]}>{insight.confidence} confidence</Badge>
        <Badge tone="off">{insight.status.replace('_', ' ')}</Badge>
        {insight.times_captured > 1 ? <Badge tone="info">captured {insight.times_captured}×</Badge> : null}
      </header>
      {/* Agent text is shown as text, never as markup. */}
      <p className="insight-text">{insight.insight_text}</p>
      {insight.entity_urns.length ? (
        <div>
          <h3 className="insight-label">About</h3>
          <ul className="insight-urns">
            {insight.entity_urns.map((urn) => (
              <li key={urn} className="admin-inline-code">
                {urn}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {insight.related_columns.length ? (
        <p className="admin-note">
          Columns: {insight.related_columns.map((c) => `${c.column}${c.relevance ? ` (${c.relevance})` : ''}`).join(', ')}
        </p>
      ) : null}
      {insight.suggested_actions.length ? (
        <div>
          <h3 className="insight-label">Suggested changes</h3>
          <ul className="insight-actions-list">
            {insight.suggested_actions.map((a, i) => (
              <li key={i}>
                <span className="admin-inline-code">{a.action_type}</span>
                {a.target ? <> on <span className="admin-inline-code">{a.target}</span></> : null}: {a.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="admin-note">
        Captured <Time at={insight.created_at} relative /> by {insight.captured_by.email ?? insight.captured_by.subject}
        {insight.captured_by.persona ? ` (persona ${insight.captured_by.persona})` : ''} · {insight.source.replace('_', ' ')}
      </p>
      {insight.review.reviewed_at ? (
        <p className="admin-note">
          Reviewed <Time at={insight.review.reviewed_at} relative /> by {insight.review.reviewed_by}
          {insight.review.notes ? `: ${insight.review.notes}` : ''}
        </p>
      ) : null}
      {insight.allowed_actions.length ? (
        <div className="form-actions">
          {insight.allowed_actions.includes('approve') ? (
            <Button variant="primary" onPress={() => onDecide('approve')} aria-label={`Approve: ${insight.insight_text.slice(0, 60)}`}>
              Approve
            </Button>
          ) : null}
          {insight.allowed_actions.includes('reject') ? (
            <Button variant="danger" onPress={() => onDecide('reject')} aria-label={`Reject: ${insight.insight_text.slice(0, 60)}`}>
              Reject
            </Button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

function DecisionDialog({ insight, decision, onClose }: { insight: Insight; decision: Decision; onClose(notice?: string): void }) {
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState('');
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  const decide = useMutation({
    mutationFn: async () => {
      const options = { params: { path: { id: insight.id } }, body: notes.trim() ? { review_notes: notes.trim() } : {} };
      return unwrap(decision === 'approve' ? await api.POST('/api/v1/portal/admin/insights/{id}/approve', options) : await api.POST('/api/v1/portal/admin/insights/{id}/reject', options));
    },
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['insights'] });
      onClose(`${categoryLabel(insight.category)} insight ${answer.changed ? (decision === 'approve' ? 'approved' : 'rejected') : `was ${answer.insight.status} already`}.`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate();
  };
  return (
    <Dialog title={`${verb} this insight?`} isOpen onOpenChange={(open) => !open && onClose()}>
      <form className="form-stack" onSubmit={submit}>
        <blockquote className="insight-quote">{insight.insight_text}</blockquote>
        {decide.isError ? <ErrorMessage>{`The api refused: ${messageOf(decide.error)}`}</ErrorMessage> : null}
        <Field label="Review notes" multiline value={notes} onChange={setNotes} autoFocus description="Optional: why, kept with the insight (at most 2000 characters)" />
        <DialogActions>
          <Button onPress={() => onClose()}>Cancel</Button>
          <Button type="submit" variant={decision === 'approve' ? 'primary' : 'danger'} isDisabled={decide.isPending}>
            {verb}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
