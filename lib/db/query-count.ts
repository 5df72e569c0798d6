// Counts the SQL statements each API request runs, when DEBUG_QUERY_COUNT=1: Drizzle's logger
// counts into the request's AsyncLocalStorage slot, and the route wrapper reports the total in
// `X-Query-Count`. Off by default (no logger, no header). The store is on globalThis because Next
// loads this module twice (the custom server's copy and the bundled one).
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "drizzle-orm/logger";
import { env } from "@/lib/env";

type Counter = { n: number };
const KEY = Symbol.for("expo-trade.query-count");
type G = typeof globalThis & { [KEY]?: AsyncLocalStorage<Counter> };

function storage(): AsyncLocalStorage<Counter> {
  const g = globalThis as G;
  return (g[KEY] ??= new AsyncLocalStorage<Counter>());
}

export const QUERY_COUNT_HEADER = "X-Query-Count";

export function countingQueries(): boolean {
  return env().DEBUG_QUERY_COUNT;
}

/** The Drizzle logger that counts (undefined when counting is off). */
export function queryCountLogger(): Logger | undefined {
  if (!countingQueries()) return undefined;
  return {
    logQuery() {
      const c = storage().getStore();
      if (c) c.n++;
    },
  };
}

/** Run `f` with a fresh counter; the count covers every statement `f` causes, awaited or not. */
export async function withQueryCount<T>(f: () => Promise<T>): Promise<{ value: T; queries: number }> {
  const counter: Counter = { n: 0 };
  const value = await storage().run(counter, f);
  return { value, queries: counter.n };
}

/**
 * Run `f` outside any request's count: for work shared by many requests (the rate counters written
 * in groups), which would otherwise be charged to whichever request happened to start it.
 */
export function uncounted<T>(f: () => T): T {
  return storage().exit(f);
}
