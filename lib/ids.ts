// Sortable ids (UUID v7): time-ordered, so primary-key indexes stay append-mostly.
import { randomUUID } from "node:crypto";

/** UUID v7: 48 bits of milliseconds, then the random bits of a v4 (Node caches their entropy). */
export function newId(): string {
  const u = randomUUID();
  const t = Date.now().toString(16).padStart(12, "0");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${u.slice(15)}`;
}
