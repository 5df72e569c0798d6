import { getTranslations, setRequestLocale } from "next-intl/server";
import { ShoutoutFeed, type Shoutout } from "@/components/community/shoutout-feed";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { shoutoutFeed } from "@/lib/services/community/shoutouts";
import { withClientMessages } from "@/lib/i18n/client-messages";

// The first page is rendered here, not fetched by the browser: reading the feed spends no
// visitor's API tier (contract 9.5). The same HTML for everyone (nothing per-user).
export const dynamic = "force-dynamic";

export const generateMetadata = simpleMetadata("Shoutouts", "title", "/shoutouts");

export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Shoutouts", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Shoutouts");
    const first = await shoutoutFeed(await getDb(), { page: 1, limit: 20 });
    // Dates become strings as the API would send them.
    const initial = JSON.parse(JSON.stringify({ shoutouts: first.shoutouts, total: first.total })) as { shoutouts: Shoutout[]; total: number };
    return (
      <div>
        <header className="mx-auto mb-6 max-w-2xl">
          <h1 className="text-3xl font-bold">{t("title")}</h1>
          <p className="mt-2 text-slate-600">{t("subtitle")}</p>
        </header>
        <ShoutoutFeed initial={initial} />
      </div>
    );
  },
);
