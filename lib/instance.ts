// This process's id. It names the instance in NOTIFY payloads (lib/realtime/events.ts) and in the
// application_name of its PostgreSQL connections, by which other instances can tell whether it is
// still running (an Idempotency-Key claimed by a dead instance is taken over: lib/api/idempotency.ts).
// On globalThis because Next loads modules twice and both copies must agree.
import { randomUUID } from "node:crypto";

const KEY = Symbol.for("expo-trade.instance-id");
const g = globalThis as typeof globalThis & { [KEY]?: string };

export const instanceId = (): string => (g[KEY] ??= randomUUID());

/** The application_name of an instance's database connections (at most 63 bytes). */
export const applicationName = (id: string = instanceId()): string => `expo-trade ${id}`;
