import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";

export default async function NotFound() {
  const t = await getTranslations("NotFound");
  return (
    <div className="py-16 text-center">
      <h1 className="text-3xl font-bold">{t("title")}</h1>
      <p className="mt-4 text-slate-600">{t("body")}</p>
      <Link href="/" className="mt-8 inline-block rounded bg-brand-600 px-4 py-2 font-medium text-white">
        {t("back")}
      </Link>
    </div>
  );
}
