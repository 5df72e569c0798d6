import { getTranslations, setRequestLocale } from "next-intl/server";
import { TasksBoard } from "@/components/community/tasks-board";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Tasks", "title", "/tasks");

export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Status", "Tasks"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Tasks");
    return (
      <div>
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mb-6 mt-2 text-slate-600">{t("subtitle")}</p>
        <TasksBoard />
      </div>
    );
  },
);
