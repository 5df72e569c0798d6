"use client";

import { useTranslations } from "next-intl";
import { useMe } from "@/components/auth/use-me";
import { Link, usePathname } from "@/lib/i18n/navigation";

/** "Send inquiry", "Order" and "Chat" on a product; anonymous visitors sign in first and come back. */
export function ProductActions({ productId, sellerId }: { productId: string; sellerId: string }) {
  const t = useTranslations("Product");
  const to = useTranslations("OrderForm");
  const me = useMe();
  const pathname = usePathname();
  if (me === undefined) return <div className="h-11" aria-hidden="true" />;
  if (me === null) {
    return (
      <Link
        href={{ pathname: "/sign-in", query: { callbackUrl: pathname } }}
        className="inline-block rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white"
        data-testid="contact-sign-in"
      >
        {t("signInToContact")}
      </Link>
    );
  }
  return (
    <div className="flex flex-wrap gap-3" data-product={productId} data-seller={sellerId}>
      <Link
        href={{ pathname: "/inquiries/new", query: { productId } }}
        className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
        data-testid="send-inquiry"
      >
        {t("sendInquiry")}
      </Link>
      <Link
        href={{ pathname: "/orders/new", query: { productId } }}
        className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-50"
        data-testid="place-order"
      >
        {to("order")}
      </Link>
      <Link
        href={{ pathname: "/chat", query: { productId } }}
        className="rounded-lg border border-brand-600 px-5 py-2.5 font-semibold text-brand-700 hover:bg-brand-50"
        data-testid="chat-supplier"
      >
        {t("chat")}
      </Link>
    </div>
  );
}
