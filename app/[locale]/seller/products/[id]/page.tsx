import { Suspense } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ProductEditor } from "@/components/seller/products-manager";
import type { Locale } from "@/lib/i18n/locales";

export default async function Page({ params }: { params: Promise<{ locale: Locale; id: string }> }) {
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
}
