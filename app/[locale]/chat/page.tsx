import { Suspense } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ChatPage } from "@/components/chat/chat-page";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Chat", "title", "/chat", { index: false });

export default withClientMessages(
  ["ApiClient", "Catalog", "Chat", "Common", "Flows", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Chat");
    return (
      <div>
        <h1 className="mb-4 text-3xl font-bold">{t("title")}</h1>
        <Suspense>
          <ChatPage />
        </Suspense>
      </div>
    );
  },
);
