/**
 * Prompts as references to resources (spec document 2, "Prompt attachment" and Errors): the counter
 * the resource service asks before a delete. `manage_resource` delete is refused while prompts
 * point at the file unless forced; a portal delete goes ahead (resources delete-rule.ts). Either
 * way the attachment rows stay, and the prompt reports the material as missing.
 */
import type { Db } from '../db/index.js';
import type { ReferenceCounter } from '../resources/index.js';

export function promptReferences(db: Db): ReferenceCounter {
  return {
    async count(resourceId) {
      const res = await db.query<{ n: number }>(`SELECT count(DISTINCT prompt_id)::int AS n FROM prompt_attachments WHERE resource_id = $1`, [resourceId]);
      return { prompts: res.rows[0]?.n ?? 0 };
    },
  };
}
