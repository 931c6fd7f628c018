/**
 * People the platform has seen, as managed resources know them: a subject is seen once its
 * personal library holds a file or a folder, or it uploaded or wrote a managed resource anywhere.
 * A platform administrator may move a file into `person:<subject>` of a seen person only, so a
 * mistyped subject never becomes a library nobody can open; the move-targets route lists the same
 * people. One query (`seenPeople`) defines both.
 */
import type { Db } from '../db/index.js';
import { anonymousSubject } from '../identity/index.js';
import type { Client } from './context.js';
import { ResourceError, type Library, type ResourceActor } from './types.js';

/** Every seen subject, one row each (the filters are pushed into each branch by the planner). */
const seenPeople = `(
  SELECT library_key AS subject FROM resources WHERE library_kind = 'person'
  UNION SELECT library_key FROM resource_folders WHERE library_kind = 'person'
  UNION SELECT uploader FROM resources
  UNION SELECT writer_id FROM resource_writers WHERE writer_kind = 'person'
) seen`;

export async function isSeenPerson(q: Db | Client, subject: string): Promise<boolean> {
  const res = await q.query(`SELECT 1 FROM ${seenPeople} WHERE subject = $1 LIMIT 1`, [subject]);
  return (res.rowCount ?? 0) > 0;
}

/**
 * A move into another person's library needs a person the platform has seen (the caller's own
 * library always exists). Refused as `invalid`, naming the subject and what "seen" means.
 */
export async function checkSeenPerson(q: Db | Client, actor: ResourceActor, library: Library): Promise<void> {
  if (library.kind !== 'person' || library.subject === actor.subject) return;
  // The subject every anonymous caller shares owns no library, so it is never a move target.
  if (library.subject !== anonymousSubject && (await isSeenPerson(q, library.subject))) return;
  throw new ResourceError(
    'invalid',
    `the platform has never seen the person "${library.subject}": a file can be moved into person:<subject> only for someone ` +
      'who has a personal library (a file or folder in it) or has uploaded or written a managed resource',
    { library: `person:${library.subject}` },
  );
}

/**
 * Seen subjects other than `except`, in subject order after `after`, containing `contains`
 * (case-insensitive) when given; at most `limit`.
 */
export async function listSeenPeople(
  q: Db,
  opts: { except: readonly string[]; contains?: string; after?: string; limit: number },
): Promise<string[]> {
  const res = await q.query<{ subject: string }>(
    `SELECT subject FROM ${seenPeople}
     WHERE subject <> ALL($1::text[]) AND ($2 = '' OR strpos(lower(subject), lower($2)) > 0) AND subject > $3
     ORDER BY subject LIMIT $4`,
    [[...opts.except, anonymousSubject], opts.contains ?? '', opts.after ?? '', opts.limit],
  );
  return res.rows.map((r) => r.subject);
}
