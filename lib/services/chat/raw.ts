// Plain SQL on the connection (or transaction) behind a Drizzle handle, for the chat hot path:
// Drizzle's query builder costs more per statement than the statements themselves there
// (docs/verified-facts: ~80 us against ~20 us). Statement texts are constants, so postgres.js
// prepares each once per connection; lists travel as one JSON parameter, which both engines
// read the same way (no driver-specific array serialization).
import type { Db } from "@/lib/db/client";

export type Row = Record<string, unknown>;
export type Raw = <T extends Row = Row>(text: string, params: unknown[]) => Promise<T[]>;

type PostgresClient = {
  unsafe: (text: string, params: unknown[], opts: { prepare: boolean }) => Promise<Row[]>;
};
type PgliteClient = {
  query: (text: string, params: unknown[]) => Promise<{ rows: Row[] }>;
};

/** Raw queries on `db`'s own connection: inside its transaction when `db` is one. */
export function rawOf(db: Db): Raw {
  // Drizzle keeps the driver's client (or the driver's transaction) on its session.
  const client = (db as unknown as { session: { client: PostgresClient | PgliteClient } }).session.client;
  if ("unsafe" in client && typeof client.unsafe === "function") {
    const pg = client;
    return async <T extends Row>(text: string, params: unknown[]) => [...(await pg.unsafe(text, params, { prepare: true }))] as T[];
  }
  const lite = client as PgliteClient;
  return async <T extends Row>(text: string, params: unknown[]) => (await lite.query(text, params)).rows as T[];
}
