/**
 * The objects the platform manages in an engine (pure rule, both engines): the schema where its
 * scratch catalog registers tables — registered tables, webhook tables and their views. A caller
 * may read them but not create, replace, rename or drop anything there, so what `manage_table`
 * and the webhook pages report is what a query reads.
 */
import { identifier, type Token } from './lexer.js';

/** Where the platform registers tables on a connection (lower case, as the engines compare names). */
export interface PlatformSchema {
  catalog: string;
  schema: string;
}

/**
 * Why input holding a statement that changes data may not run because it names a platform schema
 * (the schema itself or anything in it, in any spelling), or undefined. The engine's own
 * classification decides which input changes data; reads stay open.
 */
export function platformSchemaRefusal(tokens: readonly Token[], schemas: readonly string[]): string | undefined {
  for (const t of tokens) {
    const name = identifier(t);
    if (name !== undefined && schemas.includes(name)) return `${name} holds the tables the platform registers: a statement that changes data may not name it (read them with sql_query)`;
  }
  return undefined;
}
