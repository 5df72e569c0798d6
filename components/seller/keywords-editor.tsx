"use client";

import { useTranslations } from "next-intl";
import { useState, type KeyboardEvent } from "react";
import { COVERAGE_LANGUAGES, keywordCoverage } from "@/lib/search/coverage";

/** Keyword chips with the language coverage the server computes the same way (by script). */
export function KeywordsEditor({
  value,
  onChange,
  max = 50,
  label,
  hint,
  showCoverage = true,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  max?: number;
  label: string;
  hint: string;
  showCoverage?: boolean;
}) {
  const t = useTranslations("SellerProducts");
  const [draft, setDraft] = useState("");
  const coverage = keywordCoverage(value);

  function add(raw: string) {
    const parts = raw
      .split(/[,\n]/)
      .map((k) => k.trim())
      .filter((k) => k.length > 0 && k.length <= 100);
    const seen = new Set(value.map((k) => k.toLocaleLowerCase()));
    const next = [...value];
    for (const p of parts) {
      if (seen.has(p.toLocaleLowerCase()) || next.length >= max) continue;
      seen.add(p.toLocaleLowerCase());
      next.push(p);
    }
    onChange(next);
    setDraft("");
  }
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      if (draft.trim()) add(draft);
    } else if (e.key === "Backspace" && !draft && value.length) onChange(value.slice(0, -1));
  }

  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
      <ul className="mt-2 flex flex-wrap gap-2" aria-live="polite">
        {value.map((k) => (
          <li key={k} className="flex items-center gap-1 rounded-full bg-brand-50 py-1 ps-3 pe-1 text-sm" data-testid="keyword-chip">
            <span>{k}</span>
            <button
              type="button"
              onClick={() => onChange(value.filter((x) => x !== k))}
              className="rounded-full px-1.5 text-slate-500 hover:bg-brand-100"
              aria-label={t("removeKeyword", { keyword: k })}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="mt-2 flex gap-2">
        <input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
          placeholder={t("keywordPlaceholder")}
          aria-label={label}
          disabled={value.length >= max}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
          data-testid="keyword-input"
        />
        <button type="button" onClick={() => draft.trim() && add(draft)} className="rounded-lg border border-slate-300 px-3 py-2 text-sm">
          {t("addKeyword")}
        </button>
      </div>
      <p className="mt-1 text-xs text-slate-500">{t("keywordCount", { count: value.length })}</p>
      {showCoverage && (
        <div className="mt-3">
          <p className="text-xs font-medium text-slate-600">{t("coverage")}</p>
          <ul className="mt-1 flex flex-wrap gap-1.5" data-testid="keyword-coverage">
            {COVERAGE_LANGUAGES.map((l) => {
              const ok = coverage.covered.includes(l);
              return (
                <li
                  key={l}
                  className={`rounded px-2 py-0.5 font-mono text-xs ${ok ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-700"}`}
                  title={ok ? t("covered") : t("missing")}
                  data-covered={ok}
                >
                  {ok ? "✓" : "·"} {l}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </fieldset>
  );
}
