import { getFormatter, getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";
import type { exhibitionView } from "@/lib/services/catalog/exhibitions";
import { fill } from "@/components/ui/sentence";

export async function ExhibitionCard({ e }: { e: ReturnType<typeof exhibitionView> }) {
  const t = await getTranslations("Home");
  const tx = await getTranslations("Exhibitions");
  const format = await getFormatter();
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="exhibition-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="text-lg font-semibold">
          <Link href={`/exhibitions/${e.slug}`} className="hover:text-brand-700" dir="auto">
            {e.name}
          </Link>
        </h3>
        <span
          className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${
            e.status === "ongoing" ? "bg-green-100 text-green-800" : e.status === "upcoming" ? "bg-sky-100 text-sky-800" : "bg-slate-100 text-slate-700"
          }`}
        >
          {t(`status.${e.status}`)}
        </span>
      </div>
      <p className="mt-2 line-clamp-3 text-sm text-slate-600" dir="auto">
        {e.description}
      </p>
      <p className="mt-3 text-sm text-slate-700">
        {t("dateRange", {
          start: format.dateTime(new Date(e.startsAt), { dateStyle: "medium" }),
          end: format.dateTime(new Date(e.endsAt), { dateStyle: "medium" }),
        })}
      </p>
      {e.venue && <p className="text-sm text-slate-500">{fill((m) => t("venue", { venue: m.venue! }), { venue: <bdi>{e.venue}</bdi> })}</p>}
      {e.boothCount !== undefined && <p className="mt-2 text-xs text-slate-500">{tx("booths", { count: e.boothCount })}</p>}
    </li>
  );
}
