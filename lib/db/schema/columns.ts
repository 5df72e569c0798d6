// Column helpers shared by every domain schema.
import { numeric, text, timestamp } from "drizzle-orm/pg-core";
import { newId } from "@/lib/ids";

export const id = () => text("id").primaryKey().$defaultFn(newId);
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/** Money is numeric(14,2): exact in the database, a JSON number at the edge. */
export const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
