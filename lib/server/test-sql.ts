// Test hook: when started with EXPO_TEST_SQL_IPC=1 by a parent process holding an IPC channel (the
// integration tests' startServer), the parent may run SQL on this process's database, so tests can
// checksum tables or tamper with rows of an embedded PGlite that no other process may open. Never
// reachable over the network: without the variable and the channel nothing listens.
import type { DbHandle } from "@/lib/db/client";
import { env } from "@/lib/env";

type Ask = { type: "expo-test-sql"; id: number; text: string; params?: unknown[] };

export function listenForTestSql(handle: DbHandle): void {
  if (!env().EXPO_TEST_SQL_IPC || !process.send) return;
  process.on("message", (m: Ask) => {
    if (m?.type !== "expo-test-sql") return;
    const run = async () =>
      handle.kind === "pglite" ? (await handle.client.query(m.text, m.params ?? [])).rows : await handle.client.unsafe(m.text, (m.params ?? []) as never[]);
    run().then(
      (rows) =>
        process.send!({
          type: "expo-test-sql",
          id: m.id,
          rows: JSON.parse(JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))) as unknown,
        }),
      (err: unknown) => process.send!({ type: "expo-test-sql", id: m.id, error: (err as Error).message }),
    );
  });
}
