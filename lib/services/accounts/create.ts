// Human registration (contract 2): a buyer, or a seller with a store (seller profile).
import { and, eq, isNull, sql } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { sellerProfiles, users } from "@/lib/db/schema";
import type { CreateAccountInput } from "@/lib/schemas/accounts";

export async function createAccount(db: Db, input: CreateAccountInput) {
  // Hash outside the transaction: it is slow and needs no lock.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await assertAvailable(tx, input.username, input.email);
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          username: input.username,
          passwordHash,
          role: input.role,
          locale: input.locale ?? null,
          country: input.country ?? null,
        })
        .returning();
      let sellerProfileId: string | null = null;
      if (input.role === "SELLER") {
        const [profile] = await tx
          .insert(sellerProfiles)
          .values({ userId: user!.id, companyName: input.companyName ?? input.username, country: input.country ?? null, contactEmail: input.email })
          .returning({ id: sellerProfiles.id });
        sellerProfileId = profile!.id;
      }
      return { id: user!.id, email: user!.email, username: user!.username, role: user!.role, sellerProfileId };
    });
  } catch (err) {
    // A concurrent registration may win the race between the check and the insert.
    if (isUniqueViolation(err, "users_username_lower_key")) throw usernameTaken();
    if (isUniqueViolation(err, "users_email_lower_human_key")) throw emailTaken();
    throw err;
  }
}

async function assertAvailable(db: Db, username: string, email: string) {
  const [byName] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  if (byName) throw usernameTaken();
  const [byEmail] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNull(users.guardianId)))
    .limit(1);
  if (byEmail) throw emailTaken();
}

const usernameTaken = () => new ApiError("username_taken", "This username is already taken", { errors: [{ path: "username", message: "Already taken" }] });
const emailTaken = () =>
  new ApiError("email_taken", "An account with this e-mail already exists", { errors: [{ path: "email", message: "Already registered" }] });
