/**
 * One knowledge change as catalog writes: its check, what it reads first (the prior value a
 * rollback restores), the write, and the write that undoes it. Every write is one of the catalog
 * client's update plans (shared/catalog/writes.ts), so it is the mutation catalog_update sends.
 *
 * An add of something already there, or a removal of something absent, writes nothing and is
 * recorded as such, so undoing it writes nothing either.
 */
import { updatePlan, type EditableState, type WritePlan } from '../catalog/index.js';
import { KnowledgeError, LIMITS, type Change, type ChangeInput } from './types.js';

/** A description longer than this is refused (the catalog keeps any size; an agent's slip should not). */
export const MAX_DESCRIPTION_CHARS = 20_000;

export type Prior = NonNullable<Change['prior']>;

/** A change checked and resolved: the tag or term as a URN, the column if any. */
export interface ResolvedChange extends ChangeInput {
  /** The tag or term URN (add_tag, remove_tag, add_glossary_term). */
  labelUrn?: string;
  /** The column (field path) the change is about; none: the dataset. */
  column?: string;
}

const labelPrefix = { add_tag: 'urn:li:tag:', remove_tag: 'urn:li:tag:', add_glossary_term: 'urn:li:glossaryTerm:' } as const;

/** A tag or term named by URN, or by name (`PII` → `urn:li:tag:PII`). */
function labelUrn(prefix: string, detail: string): string {
  if (detail.startsWith('urn:')) {
    if (!detail.startsWith(prefix) || detail.length === prefix.length) throw new Error(`detail must be a ${prefix}… URN or a name`);
    return detail;
  }
  if (/[\s,()]/.test(detail)) throw new Error('detail: a tag or term name has no blanks, commas or parentheses (or give its URN)');
  return `${prefix}${detail}`;
}

function checkUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`target must be the documentation's URL (http or https), not "${value.slice(0, 100)}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`target: only http and https links are documentation (got ${url.protocol})`);
}

/** Checks every change before anything is written; a bad one refuses the whole apply, naming it. */
export function resolveChanges(changes: readonly ChangeInput[]): ResolvedChange[] {
  if (changes.length === 0) throw new KnowledgeError('invalid', 'changes: name at least one change to apply');
  if (changes.length > LIMITS.changes) throw new KnowledgeError('invalid', `changes: at most ${LIMITS.changes} in one changeset (got ${changes.length})`);
  return changes.map((change, i) => {
    try {
      return resolveChange(change);
    } catch (error) {
      throw new KnowledgeError('invalid', `changes[${i}] (${change.change_type}): ${(error as Error).message}`);
    }
  });
}

function resolveChange(change: ChangeInput): ResolvedChange {
  const detail = change.detail.trim();
  const target = change.target?.trim() || undefined;
  if (!detail) throw new Error('detail is required');
  const base = { change_type: change.change_type, detail, ...(target ? { target } : {}) };
  switch (change.change_type) {
    case 'update_description':
      if (detail.length > MAX_DESCRIPTION_CHARS) throw new Error(`the description is at most ${MAX_DESCRIPTION_CHARS} characters (got ${detail.length})`);
      return { ...base, ...(target ? { column: target } : {}) };
    case 'add_tag':
    case 'remove_tag':
    case 'add_glossary_term':
      return { ...base, labelUrn: labelUrn(labelPrefix[change.change_type], detail), ...(target ? { column: target } : {}) };
    case 'add_documentation':
      if (!target) throw new Error("target (the documentation's URL) is required");
      checkUrl(target);
      return base;
  }
}

/** What the catalog holds now that this change is about: `{description}` or `{present}`. */
export function priorOf(change: ResolvedChange, state: EditableState): Prior {
  switch (change.change_type) {
    case 'update_description':
      return { description: state.description };
    case 'add_tag':
    case 'remove_tag':
      return { present: state.tags.includes(change.labelUrn!) };
    case 'add_glossary_term':
      return { present: state.glossary_terms.includes(change.labelUrn!) };
    case 'add_documentation':
      return { present: state.links.some((l) => l.url === change.target) };
  }
}

/** What a change that wrote leaves in the catalog (a rollback checks it is still so). */
export function afterOf(change: ResolvedChange): Prior {
  if (change.change_type === 'update_description') return { description: change.detail };
  return { present: change.change_type !== 'remove_tag' };
}

const column = (c: ResolvedChange) => (c.column ? { field_path: c.column } : {});

/** The write that makes the change given what was there; none when it is there already. */
export function writeFor(entityUrn: string, change: ResolvedChange, prior: Prior): WritePlan | undefined {
  const urn = entityUrn;
  switch (change.change_type) {
    case 'update_description':
      return descriptionPlan(urn, change.detail, change);
    case 'add_tag':
      return present(prior) ? undefined : updatePlan({ what: 'tag', action: 'add', urn, target_urn: change.labelUrn!, ...column(change) });
    case 'remove_tag':
      return present(prior) ? updatePlan({ what: 'tag', action: 'remove', urn, target_urn: change.labelUrn!, ...column(change) }) : undefined;
    case 'add_glossary_term':
      return present(prior) ? undefined : updatePlan({ what: 'glossary_term', action: 'add', urn, target_urn: change.labelUrn!, ...column(change) });
    case 'add_documentation':
      return present(prior) ? undefined : updatePlan({ what: 'link', action: 'add', urn, url: change.target!, value: change.detail });
  }
}

/**
 * The write that restores `prior`; none when the change wrote nothing. A description that had no
 * edit of the catalog's own is restored as an empty edit, under which the catalog shows the
 * ingested description again (DataHub's GraphQL API has no way to delete the edit).
 */
export function undoFor(entityUrn: string, change: ResolvedChange, prior: Prior): WritePlan | undefined {
  const urn = entityUrn;
  switch (change.change_type) {
    case 'update_description':
      return descriptionPlan(urn, (prior as { description: string | null }).description ?? '', change);
    case 'add_tag':
      return present(prior) ? undefined : updatePlan({ what: 'tag', action: 'remove', urn, target_urn: change.labelUrn!, ...column(change) });
    case 'remove_tag':
      return present(prior) ? updatePlan({ what: 'tag', action: 'add', urn, target_urn: change.labelUrn!, ...column(change) }) : undefined;
    case 'add_glossary_term':
      return present(prior) ? undefined : updatePlan({ what: 'glossary_term', action: 'remove', urn, target_urn: change.labelUrn!, ...column(change) });
    case 'add_documentation':
      return present(prior) ? undefined : updatePlan({ what: 'link', action: 'remove', urn, url: change.target! });
  }
}

const present = (prior: Prior) => 'present' in prior && prior.present;

/**
 * The description write of catalog_update (the dataset's, or a column's) with `text` as is: an
 * empty text, which catalog_update refuses as a missing value, restores "no edit".
 */
function descriptionPlan(urn: string, text: string, change: ResolvedChange): WritePlan {
  const p = updatePlan({ what: change.column ? 'column_description' : 'description', urn, value: text || '-', ...column(change) });
  return { ...p, variables: { input: { ...(p.variables.input as Record<string, unknown>), description: text } } };
}
