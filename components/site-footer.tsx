import { getTranslations } from "next-intl/server";

export async function SiteFooter() {
  const t = await getTranslations("Footer");
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-600">
        <p>{t("tagline")}</p>
        <p className="mt-2">{t("rights", { year: new Date().getUTCFullYear() })}</p>
      </div>
    </footer>
  );
}
