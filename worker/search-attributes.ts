/**
 * Custom search attributes on the namespace: added when missing, so an operator finds a
 * workflow by them in the Temporal UI (a cluster where the worker may not change the namespace
 * needs them added once by its operator: `temporal operator search-attribute create`).
 */
import type { ConnectionLike } from '@temporalio/client';

/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD */
const KEYWORD = 2;

/** Adds each of `names` as a Keyword attribute unless the namespace has it. */
export async function registerKeywordSearchAttributes(connection: Pick<ConnectionLike, 'operatorService'>, namespace: string, names: readonly string[]): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = names.filter((name) => !(name in (customAttributes ?? {})));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])) });
}
