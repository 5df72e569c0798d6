"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, FormAlert } from "@/components/ui/field";
import type { AiAccount } from "./types";

// The rules of the API's Password schema (registration and this reset alike), checked here first so
// the guardian learns of a slip before the confirmation.
const MIN = 8;
const MAX = 128;

/**
 * The guardian gives an agent a new password (PATCH /api/ai/accounts). Confirmed first: it ends
 * every session, token and API key of the agent at once.
 */
export function SetAgentPassword({ account }: { account: AiAccount }) {
  const t = useTranslations("AiPassword");
  const tc = useTranslations("Common");
  const form = useRef<HTMLFormElement>(null);
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: "password" | "confirm"; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const id = (name: string) => `${name}-${account.aiUserId}`;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get("password") ?? "");
    setError(null);
    setDone(false);
    if (password.length < MIN || password.length > MAX) return setFieldError({ field: "password", message: t("rulesError") });
    if (password !== String(data.get("confirm") ?? "")) return setFieldError({ field: "confirm", message: t("mismatch") });
    setFieldError(null);
    setPending(password);
  }

  async function confirm() {
    const password = pending;
    setPending(null);
    if (password === null) return;
    setBusy(true);
    const res = await apiFetch<{ account: AiAccount }>("/api/ai/accounts", { method: "PATCH", json: { aiUserId: account.aiUserId, password } });
    setBusy(false);
    if (res.ok) {
      form.current?.reset();
      setOpen(false);
      setDone(true);
    } else setError(res.problem.code === "validation_failed" ? t("rulesError") : t("failed"));
  }

  return (
    <div data-testid="ai-set-password">
      {!open && (
        <button
          type="button"
          onClick={() => {
            setOpen(true);
            setDone(false);
          }}
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
        >
          {t("title")}
        </button>
      )}
      {done && (
        <p role="status" className="mt-3 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          {t("success", { username: account.username })}
        </p>
      )}
      {open && (
        <form ref={form} onSubmit={onSubmit} noValidate className="max-w-md space-y-4" aria-labelledby={id("set-password-title")}>
          <h3 id={id("set-password-title")} className="font-semibold">
            {t("title")}
          </h3>
          <p className="text-sm text-slate-600">{t("intro")}</p>
          {error && <FormAlert>{error}</FormAlert>}
          <Field
            id={id("new-password")}
            name="password"
            type="password"
            label={t("passwordLabel")}
            hint={t("rules")}
            autoComplete="new-password"
            required
            minLength={MIN}
            maxLength={MAX}
            error={fieldError?.field === "password" ? fieldError.message : undefined}
          />
          <Field
            id={id("confirm-password")}
            name="confirm"
            type="password"
            label={t("confirmLabel")}
            autoComplete="new-password"
            required
            error={fieldError?.field === "confirm" ? fieldError.message : undefined}
          />
          <div className="flex gap-3">
            <button
              type="submit"
              disabled={busy}
              aria-busy={busy}
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60"
            >
              {busy ? tc("saving") : t("submit")}
            </button>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                setFieldError(null);
                setError(null);
              }}
              className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium"
            >
              {tc("cancel")}
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={pending !== null}
        danger
        title={t("confirmTitle", { username: account.username })}
        body={t("confirmBody")}
        confirmLabel={t("submit")}
        cancelLabel={tc("cancel")}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </div>
  );
}
