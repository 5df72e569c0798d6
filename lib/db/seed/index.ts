// Start-up seeding of an empty database: the category tree and the reference exchange rates always
// (reference data), and with SEED_DEMO on, two exhibitions, a demo seller with a store, a demo buyer, an admin and products,
// then the demo deals (demo-deals.ts: requirements, quotes and a negotiated order) and the fair
// (demo-fair.ts: suppliers in six more countries, booths, shoutouts, a task and generated pictures).
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "../client";
import { categories, exhibitions, products, sellerProfiles, users } from "../schema";
import { CATEGORY_TREE } from "./categories-data";
import { DEMO_SECOND_SELLER, seedDemoDeals } from "./demo-deals";
import { seedDemoFair } from "./demo-fair";
import { DEMO_SUPPLIER_PASSWORD, DEMO_SUPPLIERS } from "./demo-suppliers-data";
import { seedFxRates } from "./fx-rates";
import { DEMO_PRODUCTS } from "./demo-products-data";
import { searchColumns } from "@/lib/search/normalize";

export type SeedOptions = { demo: boolean; admin?: { username: string; email: string; password: string } };

/** Demo sign-ins, printed by `npm start` and listed in the README. */
export const DEMO_ACCOUNTS = {
  seller: { username: "demo_seller", email: "seller@demo.expo-trade.test", password: "demo-seller-pass" },
  buyer: { username: "demo_buyer", email: "buyer@demo.expo-trade.test", password: "demo-buyer-pass" },
  admin: { username: "demo_admin", email: "admin@demo.expo-trade.test", password: "demo-admin-pass" },
  seller2: DEMO_SECOND_SELLER,
} as const;

/** The fair's further suppliers (demo-fair.ts), one per country, all with one password. */
export const DEMO_SUPPLIER_ACCOUNTS = DEMO_SUPPLIERS.map((s) => ({
  username: s.username,
  email: s.email,
  password: DEMO_SUPPLIER_PASSWORD,
  country: s.country,
}));

export async function seedDatabase(db: Db, options: SeedOptions): Promise<{ categories: number; demo: boolean }> {
  const seededCategories = await seedCategories(db);
  await seedFxRates(db);
  await backfillSearchColumns(db);
  if (options.admin) await ensureAdmin(db, options.admin);
  let demo = false;
  if (options.demo) {
    demo = await seedDemo(db);
    // Its own marker, so a database seeded before the deals existed gets them on its next start.
    await seedDemoDeals(db);
    // Suppliers, booths, community posts and pictures (issue #17), with their own marker as well.
    await seedDemoFair(db);
  }
  return { categories: seededCategories, demo };
}

async function seedCategories(db: Db): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(categories);
  if (Number(n) > 0) return 0;
  return db.transaction(async (tx) => {
    let count = 0;
    for (const [i, top] of CATEGORY_TREE.entries()) {
      const [parent] = await tx.insert(categories).values({ slug: top.slug, names: top.name, sortOrder: i }).returning({ id: categories.id });
      count++;
      await tx.insert(categories).values(top.children.map((c, j) => ({ slug: c.slug, names: c.name, parentId: parent!.id, sortOrder: j })));
      count += top.children.length;
    }
    return count;
  });
}

async function seedDemo(db: Db): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_ACCOUNTS.seller.username)).limit(1);
  if (existing) return false;
  const [sellerHash, buyerHash, adminHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNTS.seller.password),
    hashPassword(DEMO_ACCOUNTS.buyer.password),
    hashPassword(DEMO_ACCOUNTS.admin.password),
  ]);
  const cats = await db.select({ id: categories.id, slug: categories.slug }).from(categories);
  const bySlug = new Map(cats.map((c) => [c.slug, c.id]));
  await db.transaction(async (tx) => {
    const [admin] = await tx
      .insert(users)
      .values({ ...pick(DEMO_ACCOUNTS.admin), passwordHash: adminHash, role: "ADMIN", rateTier: "unlimited" })
      .returning({ id: users.id });
    const [seller] = await tx
      .insert(users)
      .values({ ...pick(DEMO_ACCOUNTS.seller), passwordHash: sellerHash, role: "SELLER", country: "CN" })
      .returning({ id: users.id });
    await tx.insert(users).values({ ...pick(DEMO_ACCOUNTS.buyer), passwordHash: buyerHash, role: "BUYER", country: "DE" });
    const [store] = await tx
      .insert(sellerProfiles)
      .values({
        userId: seller!.id,
        companyName: "Shenzhen Demo Trading Co., Ltd.",
        description: "Demo supplier of consumer electronics, home goods and packaging, exporting since 2008.",
        country: "CN",
        contactEmail: DEMO_ACCOUNTS.seller.email,
      })
      .returning({ id: sellerProfiles.id });
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    await tx.insert(exhibitions).values([
      {
        name: "Global Sourcing Expo 2026",
        slug: "global-sourcing-expo-2026",
        description: "Online sourcing fair for consumer electronics, home and garden, and packaging suppliers.",
        venue: "Online",
        startsAt: new Date(now - 3 * day),
        endsAt: new Date(now + 27 * day),
        createdBy: admin!.id,
      },
      {
        name: "Asia Textile & Apparel Fair",
        slug: "asia-textile-apparel-fair",
        description: "Fabrics, garments and accessories from manufacturers across Asia.",
        venue: "Online",
        startsAt: new Date(now + 45 * day),
        endsAt: new Date(now + 60 * day),
        createdBy: admin!.id,
      },
    ]);
    const rows = DEMO_PRODUCTS.map((p) => {
      const categoryId = bySlug.get(p.categorySlug);
      if (!categoryId) throw new Error(`Demo product "${p.title}" names unknown category ${p.categorySlug}`);
      return {
        sellerId: store!.id,
        categoryId,
        title: p.title,
        description: p.description,
        price: p.price.toFixed(2),
        currency: p.currency,
        moq: p.moq,
        acceptsOEM: p.acceptsOEM,
        keywords: p.keywords,
        ...searchColumns(p),
      };
    });
    if (rows.length) await tx.insert(products).values(rows);
  });
  return true;
}

function pick(a: { username: string; email: string }) {
  return { username: a.username, email: a.email };
}

/** Rows written before the search columns existed get them computed once (idempotent). */
async function backfillSearchColumns(db: Db): Promise<void> {
  for (;;) {
    const batch = await db
      .select({ id: products.id, title: products.title, description: products.description, keywords: products.keywords })
      .from(products)
      .where(sql`${products.searchText} = '' and ${products.title} <> ''`)
      .limit(500);
    if (batch.length === 0) return;
    await db.transaction(async (tx) => {
      for (const p of batch) await tx.update(products).set(searchColumns(p)).where(eq(products.id, p.id));
    });
  }
}

/** The operator's ADMIN account from ADMIN_USERNAME/ADMIN_PASSWORD: created once, never changed. */
async function ensureAdmin(db: Db, admin: { username: string; email: string; password: string }) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, admin.username.toLowerCase()))
    .limit(1);
  if (existing) return;
  await db
    .insert(users)
    .values({ username: admin.username, email: admin.email, passwordHash: await hashPassword(admin.password), role: "ADMIN", rateTier: "unlimited" });
}
