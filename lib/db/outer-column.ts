// Drizzle writes columns unqualified in a select over one table, so inside a correlated subquery
// `${booths.id}` becomes `"id"` and binds to the subquery's own table: every count came out 0.
// An outer reference therefore names its table explicitly.
import { getTableName, sql, type Column, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/** `"table"."column"`, whatever the surrounding query's shape. */
export function outer(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table as PgTable))}.${sql.identifier(column.name)}`;
}
