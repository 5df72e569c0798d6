"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/field";

type Key = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };

/** The account's API keys (for its programs, agents and the MCP server); a secret is shown once. */
export function ApiKeys() {
  return <SignInGate>{() => <Keys />}</SignInGate>;
}

function Keys() {
  const t = useTranslations("ApiKeys");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ keys: Key[] }>("/api/keys").then((r) => !cancelled && setKeys(r.ok ? r.data.keys : []));
    return () => {
      cancelled = true;
    };
  }, [version]);

  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const r = await apiFetch<{ secret: string }>("/api/keys", { json: { name: new FormData(form).get("name") } });
    if (!r.ok) return setError(r.problem.detail);
    setError(null);
    setCopied(false);
    setSecret(r.data.secret);
    form.reset();
    setVersion((v) => v + 1);
  }

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <div className="max-w-3xl space-y-6">
      <p className="text-sm text-slate-600">{t("mcp", { url: `${origin}/mcp` })}</p>
      <form onSubmit={create} className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-5" data-testid="api-key-form">
        <label className="min-w-0 flex-1 text-sm font-medium">
          {t("name")}
          <input name="name" required maxLength={100} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white">
          {t("create")}
        </button>
      </form>
      {error && <FormAlert>{error}</FormAlert>}
      {secret && (
        <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4" data-testid="api-key-secret">
          <p className="text-sm font-medium text-amber-900">{t("secretOnce")}</p>
          <div className="mt-2 flex gap-2">
            <code className="min-w-0 flex-1 overflow-x-auto rounded bg-white px-3 py-2 font-mono text-sm" dir="ltr">
              {secret}
            </code>
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
            >
              {copied ? t("copied") : t("copy")}
            </button>
          </div>
        </div>
      )}
      {!keys ? (
        <p className="text-slate-500">{tc("loading")}</p>
      ) : !keys.length ? (
        <p className="text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="api-key">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words" dir="auto">
                  {k.name}
                </p>
                <p className="font-mono text-xs text-slate-500" dir="ltr">
                  {k.prefix}…
                </p>
                <p className="text-xs text-slate-500">{k.lastUsedAt ? t("lastUsed", { time: format.relativeTime(new Date(k.lastUsedAt)) }) : t("neverUsed")}</p>
              </div>
              {k.revokedAt ? (
                <span className="text-sm text-slate-500">{t("revoked")}</span>
              ) : (
                <button type="button" onClick={() => setRevoking(k)} className="text-sm text-red-700 underline">
                  {t("revoke")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        danger
        title={revoking ? t("revokeConfirm", { name: revoking.name }) : ""}
        body={t("revokeBody")}
        confirmLabel={t("revoke")}
        cancelLabel={tc("cancel")}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const id = revoking?.id;
          setRevoking(null);
          if (id) void apiFetch(`/api/keys/${id}`, { method: "DELETE" }).then(() => setVersion((v) => v + 1));
        }}
      />
    </div>
  );
}
