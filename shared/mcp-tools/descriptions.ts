/**
 * Built-in description overrides (spec document 1, tools.description_overrides): they steer agents
 * to discover data in the catalog before querying. Configured overrides win over these.
 */
export const builtInDescriptionOverrides: Readonly<Record<string, string>> = {
  sql_query:
    'Run a read-only SQL query and return rows. Before writing SQL, call catalog_search to find the right tables and read their ' +
    'descriptions, owners and column meanings; query only tables you have looked up.',
  sql_execute:
    'Execute a SQL statement that may change data. First call catalog_search to confirm the tables, their meaning and owners; ' +
    'never modify a table you have not looked up.',
};

export function describeTool(
  name: string,
  builtIn: string,
  configured: Readonly<Record<string, string>>,
): string {
  return configured[name] ?? builtInDescriptionOverrides[name] ?? builtIn;
}
