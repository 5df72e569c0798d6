import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { allOperations } from "@/lib/api/operations/list";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { openApiDocument } from "@/lib/openapi/document";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "ApiDocs" });
  return { title: t("title"), description: t("intro"), alternates: alternates(locale, "/api-docs") };
}

const METHOD_COLORS: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-green-100 text-green-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-violet-100 text-violet-800",
  DELETE: "bg-red-100 text-red-800",
};

type OpenApiOperation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  responses: Record<string, { description: string }>;
};

/** The API reference, rendered from the same document /api/openapi serves. */
export default async function ApiDocsPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("ApiDocs");
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
  const ops = allOperations().sort((a, b) => a.tags[0]!.localeCompare(b.tags[0]!) || a.path.localeCompare(b.path));
  const tags = [...new Set(ops.map((o) => o.tags[0]!))];
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mt-3 max-w-3xl text-slate-700">{t("intro")}</p>
        <p className="mt-2 text-sm text-slate-500">{t("operationsCount", { count: ops.length })}</p>
        <a href="/api/openapi" download="expo-trade-openapi.json" className="mt-4 inline-block rounded bg-brand-600 px-4 py-2 text-sm font-medium text-white">
          {t("download")}
        </a>
      </header>
      <section className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="font-semibold">{t("authTitle")}</h2>
          <p className="mt-2 text-sm text-slate-700">{t("authBody")}</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 className="font-semibold">{t("errorsTitle")}</h2>
          <p className="mt-2 text-sm text-slate-700">{t("errorsBody")}</p>
        </div>
      </section>
      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="text-2xl font-semibold">
            {tag}
          </h2>
          <div className="mt-3 space-y-3">
            {ops
              .filter((o) => o.tags[0] === tag)
              .map((op) => {
                const spec = doc.paths[op.path]?.[op.method.toLowerCase()];
                const body = spec?.requestBody ? Object.values(spec.requestBody.content)[0]?.schema : undefined;
                return (
                  <details key={`${op.method} ${op.path}`} className="rounded-xl border border-slate-200 bg-white" data-testid="api-operation">
                    <summary className="flex cursor-pointer flex-wrap items-center gap-3 px-4 py-3">
                      <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${METHOD_COLORS[op.method]}`}>{op.method}</span>
                      <code dir="ltr" className="font-mono text-sm">
                        {op.path}
                      </code>
                      <span className="text-sm text-slate-600">{op.summary}</span>
                    </summary>
                    <div className="space-y-3 border-t border-slate-100 px-4 py-3 text-sm">
                      {op.description && <p className="text-slate-700">{op.description}</p>}
                      <p className="text-slate-600">
                        {op.access === "public" || op.access === "optional" ? t("public") : t("requiresSignIn")}
                        {op.permission !== "none" && <> · {t("aiPermission", { permission: op.permission })}</>}
                      </p>
                      {spec?.parameters && spec.parameters.length > 0 && (
                        <div>
                          <h3 className="font-medium">{t("parameters")}</h3>
                          <ul className="mt-1 list-disc ps-5 font-mono text-xs" dir="ltr">
                            {spec.parameters.map((p) => (
                              <li key={`${p.in}-${p.name}`}>
                                {p.name} ({p.in}){p.required ? " *" : ""}
                              </li>
                            ))}
                          </ul>
                        </div>
                      )}
                      {body !== undefined && (
                        <div>
                          <h3 className="font-medium">{t("requestBody")}</h3>
                          <pre dir="ltr" className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                            {JSON.stringify(body, null, 2)}
                          </pre>
                        </div>
                      )}
                      <div>
                        <h3 className="font-medium">{t("responses")}</h3>
                        <ul className="mt-1 space-y-0.5">
                          {Object.entries(spec?.responses ?? {}).map(([status, r]) => (
                            <li key={status}>
                              <code className="font-mono">{status}</code> {r.description}
                            </li>
                          ))}
                        </ul>
                      </div>
                    </div>
                  </details>
                );
              })}
          </div>
        </section>
      ))}
    </div>
  );
}
