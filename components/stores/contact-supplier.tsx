"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { useRouter } from "@/lib/i18n/navigation";

/**
 * "Contact supplier": the store page is cached as the same HTML for every visitor, so who is
 * signed in is learnt here, on click, not at render. Signed out: sign in and come back.
 */
export function ContactSupplier({ storeId, companyName }: { storeId: string; companyName: string }) {
  const t = useTranslations("Stores");
  const router = useRouter();
  const [checking, setChecking] = useState(false);
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  // Asked only when the visitor clicks: a store page view spends no API call of the visitor's tier.
  async function start() {
    setChecking(true);
    setAlert(null);
    const r = await apiFetch<{ user: { sellerProfileId: string | null } | null }>("/api/auth/me");
    setChecking(false);
    if (!r.ok) {
      setAlert(r.problem.status === 429 ? t("errors.rateLimited", { seconds: r.problem.retryAfter ?? 60 }) : t("errors.network"));
      return;
    }
    if (!r.data.user) {
      router.push({ pathname: "/sign-in", query: { callbackUrl: window.location.pathname + window.location.search } });
      return;
    }
    if (r.data.user.sellerProfileId === storeId) {
      setAlert(t("ownStore"));
      return;
    }
    setOpen(true);
  }

  async function send(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const content = String(new FormData(e.currentTarget).get("content") ?? "").trim();
    if (!content) return;
    setPending(true);
    setAlert(null);
    const r = await apiFetch<{ conversation: { id: string } }>("/api/chat/messages", { json: { storeId, content } });
    if (r.ok) {
      router.push({ pathname: "/chat", query: { conversation: r.data.conversation.id } });
      return;
    }
    setPending(false);
    setAlert(
      r.problem.status === 0
        ? t("errors.network")
        : r.problem.status === 429
          ? t("errors.rateLimited", { seconds: r.problem.retryAfter ?? 60 })
          : r.problem.status === 401
            ? t("errors.signedOut")
            : t("errors.generic"),
    );
  }

  if (!open)
    return (
      <div className="space-y-2">
        {alert && <FormAlert>{alert}</FormAlert>}
        <button
          type="button"
          onClick={() => void start()}
          disabled={checking}
          data-testid="contact-supplier"
          className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white disabled:opacity-60"
        >
          {t("contact")}
        </button>
      </div>
    );
  return (
    <form onSubmit={send} className="w-full space-y-2" data-testid="contact-form">
      {alert && <FormAlert>{alert}</FormAlert>}
      <label htmlFor="contact-content" className="block text-sm font-medium text-slate-800">
        {t("messageTo", { name: companyName })}
      </label>
      <textarea
        id="contact-content"
        name="content"
        rows={3}
        required
        maxLength={4000}
        defaultValue={t("messageDraft")}
        className="block w-full rounded-lg border border-slate-300 px-3 py-2"
      />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white disabled:opacity-60">
          {pending ? t("sending") : t("send")}
        </button>
        <button type="button" onClick={() => setOpen(false)} className="rounded-lg border border-slate-300 px-4 py-2 font-medium">
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
