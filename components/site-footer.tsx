import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";

export async function SiteFooter() {
  const t = await getTranslations("Footer");
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-600">
        <p>{t("tagline")}</p>
        <p className="mt-2 flex flex-wrap gap-x-4">
          <span>{t("rights", { year: new Date().getUTCFullYear() })}</span>
          <Link href="/legal/ai-privacy-policy" className="underline hover:text-brand-700">
            {t("aiPrivacy")}
          </Link>
        </p>
      </div>
    </footer>
  );
}
