import { Suspense } from "react";
import { setRequestLocale } from "next-intl/server";
import { TradeForm } from "@/components/trade/trade-forms";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("InquiryForm", "title", "/inquiries/new", { index: false });

export default withClientMessages(
  ["ApiClient", "Buyer", "Common", "InquiryForm", "OrderForm"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    setRequestLocale((await params).locale);
    return (
      <Suspense>
        <TradeForm mode="inquiry" />
      </Suspense>
    );
  },
);
