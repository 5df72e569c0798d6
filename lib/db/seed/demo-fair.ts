// The demo fair (issue #17): six more suppliers in six countries with their products, a published
// booth of every demo store in the exhibitions, shoutouts, an open task, and pictures for all of it
// (demo-images.ts). Runs once after the demo and its deals: the last fair supplier is its marker,
// so a database seeded before the fair existed gets it on its next start.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { hashPassword } from "@/lib/auth/password";
import { searchColumns } from "@/lib/search/normalize";
import type { Db } from "../client";
import { booths, categories, exhibitions, products, sellerProfiles, shoutouts, tasks, users } from "../schema";
import { CATEGORY_TREE } from "./categories-data";
import { bannerSvg, logoSvg, productSvg, storeImages, type DrawnImage } from "./demo-images";
import { DEMO_SUPPLIER_PASSWORD, DEMO_SUPPLIERS } from "./demo-suppliers-data";

const GLOBAL_EXPO = "global-sourcing-expo-2026";
const TEXTILE_FAIR = "asia-textile-apparel-fair";
/** Stores that also exhibit at the textile fair (the others have nothing to show there). */
const TEXTILE_EXHIBITORS = new Set(["CN", "IN", "TR", "VN", "BR"]);
const TEXTILE_TOPS = new Set(["apparel-textiles"]);
const TEXTILE_CHILDREN = new Set(["home-textiles"]);

const TOP_OF = new Map(CATEGORY_TREE.flatMap((top) => top.children.map((c) => [c.slug, top.slug] as const)));

export async function seedDemoFair(db: Db): Promise<boolean> {
  const marker = DEMO_SUPPLIERS[DEMO_SUPPLIERS.length - 1]!.username;
  const [done] = await db.select({ id: users.id }).from(users).where(eq(users.username, marker)).limit(1);
  if (done) return false;
  const [buyer] = await db.select({ id: users.id }).from(users).where(eq(users.username, "demo_buyer"));
  const expos = await db
    .select()
    .from(exhibitions)
    .where(inArray(exhibitions.slug, [GLOBAL_EXPO, TEXTILE_FAIR]));
  const globalExpo = expos.find((e) => e.slug === GLOBAL_EXPO);
  const textileFair = expos.find((e) => e.slug === TEXTILE_FAIR);
  if (!buyer || !globalExpo || !textileFair) return false;
  const cats = await db.select({ id: categories.id, slug: categories.slug }).from(categories);
  const catId = new Map(cats.map((c) => [c.slug, c.id]));
  const passwordHash = await hashPassword(DEMO_SUPPLIER_PASSWORD);

  await db.transaction(async (tx) => {
    for (const s of DEMO_SUPPLIERS) {
      const [u] = await tx
        .insert(users)
        .values({ username: s.username, email: s.email, passwordHash, role: "SELLER", country: s.country })
        .returning({ id: users.id });
      const [store] = await tx
        .insert(sellerProfiles)
        .values({
          userId: u!.id,
          companyName: s.companyName,
          description: s.description,
          country: s.country,
          website: s.website,
          phone: s.phone,
          contactEmail: s.email,
        })
        .returning({ id: sellerProfiles.id });
      await tx.insert(products).values(
        s.products.map((p) => {
          const categoryId = catId.get(p.categorySlug);
          if (!categoryId) throw new Error(`Demo product "${p.title}" names unknown category ${p.categorySlug}`);
          return {
            sellerId: store!.id,
            categoryId,
            title: p.title,
            description: p.description,
            price: p.price.toFixed(2),
            currency: p.currency,
            moq: p.moq,
            acceptsOEM: p.acceptsOEM ?? false,
            priceTiers: p.tiers ?? [],
            keywords: p.keywords,
            ...searchColumns(p),
          };
        }),
      );
    }
    await seedBooths(tx, globalExpo, textileFair);
    await seedCommunity(tx, buyer.id);
  });
  await seedPictures(db, [globalExpo.id, textileFair.id]);
  return true;
}

const DEMO_USERNAMES = () => ["demo_seller", "demo_seller_2", ...DEMO_SUPPLIERS.map((s) => s.username)];

async function demoStores(db: Db) {
  return db
    .select({ id: sellerProfiles.id, userId: users.id, username: users.username, companyName: sellerProfiles.companyName, country: sellerProfiles.country })
    .from(sellerProfiles)
    .innerJoin(users, eq(users.id, sellerProfiles.userId))
    .where(inArray(users.username, DEMO_USERNAMES()));
}

type Expo = typeof exhibitions.$inferSelect;

/** A published booth of every demo store at the sourcing expo, and of the textile makers at the textile fair. */
async function seedBooths(db: Db, globalExpo: Expo, textileFair: Expo) {
  const stores = await demoStores(db);
  const slogan = new Map(DEMO_SUPPLIERS.map((s) => [s.username, s.booth]));
  let n = 0;
  for (const store of stores) {
    const own = slogan.get(store.username);
    const base = { sellerId: store.id, isPublished: true, keywords: [] as string[] };
    const [main] = await db
      .insert(booths)
      .values({
        ...base,
        exhibitionId: globalExpo.id,
        exhibitionName: globalExpo.name,
        name: own?.name ?? store.companyName,
        location: own?.location ?? `Hall G, G-${String(++n).padStart(2, "0")}`,
        description: `${store.companyName} at ${globalExpo.name}: live product demos, samples and quotes within 24 hours.`,
      })
      .returning({ id: booths.id });
    const rows = await db
      .select({ id: products.id, slug: categories.slug })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .where(and(eq(products.sellerId, store.id), isNull(products.boothId)));
    const textile = (slug: string) => TEXTILE_TOPS.has(TOP_OF.get(slug) ?? "") || TEXTILE_CHILDREN.has(slug);
    let fairBooth: string | null = null;
    if (store.country && TEXTILE_EXHIBITORS.has(store.country)) {
      const [b] = await db
        .insert(booths)
        .values({
          ...base,
          exhibitionId: textileFair.id,
          exhibitionName: textileFair.name,
          name: `${store.companyName}: textiles`,
          location: `Pavilion ${store.country}, ${String(++n).padStart(2, "0")}`,
          description: `Fabrics, garments and home textiles from ${store.companyName}. Ask for swatches and our seasonal catalogue.`,
        })
        .returning({ id: booths.id });
      fairBooth = b!.id;
    }
    const toFair = rows.filter((r) => fairBooth && textile(r.slug)).map((r) => r.id);
    const toMain = rows.filter((r) => !toFair.includes(r.id)).map((r) => r.id);
    if (toMain.length) await db.update(products).set({ boothId: main!.id }).where(inArray(products.id, toMain));
    if (toFair.length) await db.update(products).set({ boothId: fairBooth }).where(inArray(products.id, toFair));
  }
}

/** Shoutouts by stores and the buyer, and an open task, so the community pages are not empty. */
async function seedCommunity(db: Db, buyerId: string) {
  const stores = await demoStores(db);
  const byUser = new Map(stores.map((s) => [s.username, s]));
  const firstProduct = async (username: string) => {
    const s = byUser.get(username);
    if (!s) return null;
    const [p] = await db.select({ id: products.id }).from(products).where(eq(products.sellerId, s.id)).limit(1);
    return p?.id ?? null;
  };
  const posts: [string, string][] = [
    ["demo_seller_de", "New at our booth: the 18 V brushless drill driver. Samples ship from Solingen within 48 hours."],
    ["demo_seller_in", "Hand-block printing live at Hall A today: come and see how our bedsheets are made."],
    ["demo_seller_mx", "The new Chiapas harvest is in. Cupping notes and a free 1 kg sample for importers."],
    ["demo_seller_ae", "Solar street lights tested at 55 °C in Dubai: ask us for the test report."],
    ["demo_seller_br", "Private label from 300 units: açaí serum, body cream and hair masks."],
  ];
  for (const [username, content] of posts) {
    const s = byUser.get(username);
    if (s) await db.insert(shoutouts).values({ userId: s.userId, content, productId: await firstProduct(username) });
  }
  await db.insert(shoutouts).values({ userId: buyerId, content: "Looking for EU-certified LED desk lamps, 5,000 units. Quotes welcome on our requirement." });
  await db.insert(tasks).values({
    title: "Translate a product catalogue into German",
    description: "12 pages, tools and hardware; glossary provided. Deliver as DOCX within a week.",
    reward: "150.00",
    currency: "EUR",
    status: "open",
    createdBy: buyerId,
  });
}

/** Pictures for every demo product, store and booth without one, and for the two exhibitions. */
async function seedPictures(db: Db, exhibitionIds: string[]) {
  const stores = await demoStores(db);
  const storeIds = stores.map((s) => s.id);
  const prods = await db
    .select({ id: products.id, title: products.title, slug: categories.slug, sellerId: products.sellerId })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(inArray(products.sellerId, storeIds), isNull(products.mainImageUrl)));
  const userOf = new Map(stores.map((s) => [s.id, s.userId]));
  const expos = await db
    .select()
    .from(exhibitions)
    .where(and(inArray(exhibitions.id, exhibitionIds), isNull(exhibitions.bannerUrl)));
  const boothRows = await db.select({ id: booths.id, name: booths.name, sellerId: booths.sellerId }).from(booths).where(inArray(booths.sellerId, storeIds));

  const images: DrawnImage[] = [
    ...prods.map((p) => ({
      svg: productSvg(p.title, TOP_OF.get(p.slug) ?? ""),
      name: "product.webp",
      type: "product_image" as const,
      userId: userOf.get(p.sellerId)!,
    })),
    ...stores.map((s) => ({ svg: logoSvg(s.companyName), name: "logo.webp", type: "logo" as const, userId: s.userId })),
    ...stores.map((s) => ({ svg: bannerSvg(s.companyName, countryLine(s.country)), name: "banner.webp", type: "banner" as const, userId: s.userId })),
    ...boothRows.map((b) => ({
      svg: bannerSvg(b.name, "Expo Trade"),
      name: "booth-banner.webp",
      type: "boothBanner" as const,
      userId: userOf.get(b.sellerId)!,
    })),
    ...expos.map((e) => ({ svg: bannerSvg(e.name, e.venue || "Online"), name: "exhibition.webp", type: "boothBanner" as const, userId: null })),
  ];
  const urls = await storeImages(db, images);
  let i = 0;
  const now = new Date();
  await db.transaction(async (tx) => {
    for (const p of prods) {
      const url = urls[i++]!;
      await tx
        .update(products)
        .set({ mainImageUrl: url, images: [url], updatedAt: now })
        .where(eq(products.id, p.id));
    }
    const logos = stores.map(() => urls[i++]!);
    const banners = stores.map(() => urls[i++]!);
    for (const [j, s] of stores.entries()) {
      await tx.update(sellerProfiles).set({ logoUrl: logos[j], bannerUrl: banners[j], updatedAt: now }).where(eq(sellerProfiles.id, s.id));
    }
    for (const b of boothRows) {
      const seller = stores.findIndex((s) => s.id === b.sellerId);
      await tx.update(booths).set({ bannerUrl: urls[i++]!, logoUrl: logos[seller], updatedAt: now }).where(eq(booths.id, b.id));
    }
    for (const e of expos) await tx.update(exhibitions).set({ bannerUrl: urls[i++]!, updatedAt: now }).where(eq(exhibitions.id, e.id));
  });
}

const COUNTRY_NAMES: Record<string, string> = {
  CN: "China",
  VN: "Vietnam",
  IN: "India",
  DE: "Germany",
  TR: "Türkiye",
  MX: "Mexico",
  BR: "Brazil",
  AE: "United Arab Emirates",
};
const countryLine = (code: string | null) => `Exhibitor · ${COUNTRY_NAMES[code ?? ""] ?? code ?? ""}`;
