import type { Metadata } from "next";
import { Suspense } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ProductEditor } from "@/components/seller/products-manager";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

type Params = { params: Promise<{ locale: Locale; id: string }> };

// The product itself is loaded in the browser (the owner's view): the tab says what the page is for.
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, id } = await params;
  const t = await getTranslations({ locale, namespace: "SellerProducts" });
  return { title: t("edit"), alternates: alternates(locale, `/seller/products/${id}`), robots: { index: false } };
}

export default withClientMessages(["ApiClient", "Common", "Seller", "SellerProducts", "Upload"], async function Page({ params }: Params) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("SellerProducts");
  return (
    <div>
      <h1 className="mb-6 text-3xl font-bold">{t("edit")}</h1>
      <Suspense>
        <ProductEditor id={id} />
      </Suspense>
    </div>
  );
});
