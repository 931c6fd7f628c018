/**
 * What a caller's SQL may not do on Trino, on every connection and tool (pure rules; checked with
 * classification, before anything is sent): point a table, schema or partition at a storage
 * location. A Hive catalog that can read the platform's storage (the scratch catalog) would
 * otherwise let anyone with sql_execute create a table over another person's managed resources;
 * the platform registers its scratch tables itself. Judged on the lexer's tokens, so a property
 * value built by an expression (`'s3://' || 'x'`) is refused as well as a literal.
 */
import { identifier, isPunct, isWord, type Token } from './lexer.js';
import { platformSchemaRefusal, type PlatformSchema } from './platform-objects.js';

/** Table and schema properties that name a storage location (Hive, Iceberg, Delta Lake). */
const locationProperties = new Set(['location', 'external_location']);
/** Hive procedures that attach a location to a table (unregistering goes with them). */
const partitionProcedures = new Set(['register_partition', 'unregister_partition', 'create_empty_partition']);

/**
 * Why these tokens may not run on Trino, or undefined. A property is `name = value` as an element
 * of a property list — `WITH ( … )` or `SET PROPERTIES … ` — so a column compared in a WHERE is not one.
 */
export function trinoStorageRefusal(tokens: readonly Token[]): string | undefined {
  // Per parenthesis depth: whether its elements are properties.
  const lists = [false];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) lists.push(isWord(tokens[i - 1], 'WITH'));
    else if (isPunct(t, ')')) {
      if (lists.length > 1) lists.pop();
    }
    else if (isPunct(t, ';')) lists.splice(0, lists.length, false);
    else if (isWord(t, 'PROPERTIES') && isWord(tokens[i - 1], 'SET')) lists[lists.length - 1] = true;
    const name = identifier(t);
    if (name === undefined) continue;
    const element = isPunct(tokens[i - 1], '(') || isPunct(tokens[i - 1], ',') || isWord(tokens[i - 1], 'PROPERTIES');
    if (locationProperties.has(name) && isPunct(tokens[i + 1], '=') && element && lists.at(-1)) {
      return `setting a storage location (${name}) is not available: tables over storage are registered by the platform`;
    }
    if (partitionProcedures.has(name) && isPunct(tokens[i + 1], '(')) {
      return `${name}() is not available: partitions over storage are registered by the platform`;
    }
  }
  return undefined;
}

/** Hive's hidden columns that name a table's files (object keys in the platform's storage). */
const fileColumns = new Set(['$path', '$file_size', '$file_modified_time', '$partition']);

/**
 * Why Trino input may not run because of the scratch schema (platform-objects.ts), or undefined:
 * a statement that changes data may not name it (nor run where the connection's defaults are that
 * schema, as then no write can be told apart from one on the platform's tables); and no statement
 * about it may show where its files lie — `SHOW CREATE` (a table's `external_location`) or Hive's
 * hidden file columns (`"$path"` …), which hold the platform's storage locations and file ids.
 */
export function trinoPlatformObjectRefusal(tokens: readonly Token[], scratch: PlatformSchema, defaults: { catalog?: string; schema?: string }, writes: boolean): string | undefined {
  const inScratch = defaults.catalog?.toLowerCase() === scratch.catalog && defaults.schema?.toLowerCase() === scratch.schema;
  if (writes && inScratch) {
    return `this connection's default schema ${scratch.catalog}.${scratch.schema} is where the platform registers tables: statements that change data are not available on it`;
  }
  const named = platformSchemaRefusal(tokens, [scratch.schema]);
  if (writes && named) return named;
  if (!named && !inScratch) return undefined;
  const where = `it shows where the platform's storage holds the files of ${scratch.schema}`;
  if (isWord(tokens[0], 'SHOW') && isWord(tokens[1], 'CREATE')) return `SHOW CREATE is not available here: ${where}`;
  const column = tokens.map(identifier).find((name) => name !== undefined && fileColumns.has(name));
  return column === undefined ? undefined : `${column} is not available here: ${where}`;
}
