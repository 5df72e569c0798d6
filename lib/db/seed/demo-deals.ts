// Demo deals (issue #15): an open requirement with quotes from two demo stores, and a requirement
// negotiated to an order (quote, buyer counter, store counter, accepted), so a newcomer sees the
// whole loop at once. Made through the trade services, so every state, audit row and notification
// is the real one. Runs once: the second demo store is its marker.
import { and, eq } from "drizzle-orm";
import type { HumanActor } from "@/lib/auth/actor";
import { hashPassword } from "@/lib/auth/password";
import { systemCtx } from "@/lib/gate/context";
import { searchColumns } from "@/lib/search/normalize";
import { acceptOffer, counterOffer, quoteRequirement } from "@/lib/services/trade/offers";
import { closeRequirement, createRequirement } from "@/lib/services/trade/requirements";
import type { Db } from "../client";
import { categories, products, sellerProfiles, users } from "../schema";

export const DEMO_SECOND_SELLER = { username: "demo_seller_2", email: "seller2@demo.expo-trade.test", password: "demo-seller2-pass" } as const;

const LAMP = {
  title: "USB-C LED Desk Lamp, Dimmable, 3 Colour Temperatures",
  description: "Aluminium LED desk lamp powered over USB-C, stepless dimming, 3000K/4000K/6500K, flicker-free, CE and RoHS certified.",
  keywords: ["LED desk lamp", "USB-C lamp", "Schreibtischlampe", "台灯"],
  acceptsOEM: true,
};

type Who = { id: string; username: string; email: string; role: HumanActor["user"]["role"]; sellerProfileId: string | null };
const asHuman = (u: Who): HumanActor => ({ type: "human", user: u, session: { id: "demo-seed", via: "cookie" }, rateTier: "unlimited" });

export async function seedDemoDeals(db: Db): Promise<boolean> {
  const [marker] = await db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_SECOND_SELLER.username)).limit(1);
  if (marker) return false;
  const account = async (username: string) => {
    const [u] = await db
      .select({ id: users.id, username: users.username, email: users.email, role: users.role, sellerProfileId: sellerProfiles.id })
      .from(users)
      .leftJoin(sellerProfiles, eq(sellerProfiles.userId, users.id))
      .where(eq(users.username, username));
    return u;
  };
  const buyerRow = await account("demo_buyer");
  const sellerRow = await account("demo_seller");
  if (!buyerRow || !sellerRow?.sellerProfileId) return false;
  const [lighting] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, "led-bulbs-tubes"));
  const [chargers] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, "mobile-phones-accessories"));
  if (!lighting) throw new Error("Demo deals need the category led-bulbs-tubes (categories-data.ts)");

  const passwordHash = await hashPassword(DEMO_SECOND_SELLER.password);
  const second = await db.transaction(async (tx) => {
    const [u] = await tx
      .insert(users)
      .values({ username: DEMO_SECOND_SELLER.username, email: DEMO_SECOND_SELLER.email, passwordHash, role: "SELLER", country: "VN" })
      .returning({ id: users.id });
    const [store] = await tx
      .insert(sellerProfiles)
      .values({
        userId: u!.id,
        companyName: "Hanoi Demo Lighting JSC",
        description: "Demo maker of LED desk and office lighting.",
        country: "VN",
        contactEmail: DEMO_SECOND_SELLER.email,
      })
      .returning({ id: sellerProfiles.id });
    return { id: u!.id, store: store!.id };
  });
  const lamp = async (sellerId: string, price: string, currency: string) => {
    const [p] = await db
      .insert(products)
      .values({ sellerId, categoryId: lighting.id, ...LAMP, price, currency, moq: 500, ...searchColumns(LAMP) })
      .returning({ id: products.id });
    return p!.id;
  };
  const firstLamp = await lamp(sellerRow.sellerProfileId, "12.50", "USD");
  const secondLamp = await lamp(second.store, "11.40", "EUR");

  const buyer = systemCtx(db, asHuman({ ...buyerRow, sellerProfileId: null }));
  const seller = systemCtx(db, asHuman(sellerRow));
  const seller2 = systemCtx(
    db,
    asHuman({ id: second.id, username: DEMO_SECOND_SELLER.username, email: DEMO_SECOND_SELLER.email, role: "SELLER", sellerProfileId: second.store }),
  );

  const open = await createRequirement(buyer, {
    title: "5,000 USB-C LED desk lamps",
    description: "Dimmable, CE marked, EU plug not needed (USB-C powered). Delivery to Hamburg within 60 days.",
    budget: 60000,
    currency: "EUR",
    categoryId: lighting.id,
    quantity: 5000,
  });
  await quoteRequirement(seller, open.id, { unitPrice: 11.8, currency: "USD", quantity: 5000, productId: firstLamp, message: "CE certified, 30 days." });
  await quoteRequirement(seller2, open.id, { unitPrice: 10.9, currency: "EUR", quantity: 5000, productId: secondLamp, message: "Gift box included." });

  const charger = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, sellerRow.sellerProfileId), eq(products.title, "20W PD USB-C Fast Charger Wall Adapter")));
  const dealProduct = charger[0]?.id ?? firstLamp;
  const deal = await createRequirement(buyer, {
    title: "2,000 USB-C fast chargers, 20 W",
    description: "PD 3.0, EU plug, white.",
    budget: 4500,
    currency: "USD",
    categoryId: chargers?.id,
    quantity: 2000,
  });
  const quoted = await quoteRequirement(seller, deal.id, {
    unitPrice: 2.3,
    currency: "USD",
    quantity: 2000,
    productId: dealProduct,
    message: "EU plug, 20 days.",
  });
  const countered = await counterOffer(buyer, quoted.offer.id, { unitPrice: 2.05, quantity: 2000, message: "We can do 2.05 for 2,000." });
  const final = await counterOffer(seller, countered.offer.id, { unitPrice: 2.15, quantity: 2000, message: "2.15 is our best price." });
  await acceptOffer(buyer, final.offer.id);
  // Bought: the buyer closes it, so stores no longer see it on the board.
  await closeRequirement(buyer, deal.id);
  return true;
}
