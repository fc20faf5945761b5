/**
 * Names for the statements the Prisma adapter sends (its public `statementNameGenerator` option), so that pg
 * prepares each distinct text once per connection and PostgreSQL parses and plans it once, not on every
 * request. Measured on the hot paths (docs/benchmarks.md, bench:hot-reads): placement's read is a long
 * statement whose parse and plan were a large part of PostgreSQL's work per request.
 *
 * Each name stands for one text for the life of the process (pg refuses one name for two texts). Texts
 * that vary with their input (an `IN` list of n parameters) would make a name each, held by every
 * connection and its PostgreSQL backend: past `limit` distinct texts, new ones go unnamed, as before.
 */
export function preparedStatementNames(limit = 1_000): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined) return known;
    // An empty name is pg's unnamed statement: parsed again at each use.
    if (names.size >= limit) return "";
    const name = `mf_${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}
