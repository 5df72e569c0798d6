"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import type { Me } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { LoadError } from "@/components/ui/load-error";
import { FormAlert } from "@/components/ui/field";
import { MoneyFields } from "@/components/ui/money-fields";
import { AiTag, StatusBadge } from "@/components/ui/status-badge";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Party = { id: string; username: string; isAI: boolean };
type Task = {
  id: string;
  title: string;
  description: string;
  reward: number | null;
  currency: string | null;
  status: string;
  createdBy: Party;
  claimedBy: Party | null;
  result: string | null;
  sentByAI: boolean;
};

export function TasksBoard() {
  return <SignInGate>{(me) => <Board me={me} />}</SignInGate>;
}

function Board({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("Tasks");
  const tc = useTranslations("Common");
  const [view, setView] = useState<"open" | "created" | "claimed">("open");
  const [items, setItems] = useState<Task[] | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    const q = view === "open" ? "status=open" : `mine=${view}`;
    void apiFetch<{ tasks: Task[] }>(`/api/marketplace/tasks?${q}&limit=100`).then((r) => {
      if (cancelled) return;
      setLoadError(r.ok ? null : r.problem.detail);
      if (r.ok) setItems(r.data.tasks);
    });
    return () => {
      cancelled = true;
    };
  }, [view, version]);

  const act = async (path: string, json?: unknown) => {
    const r = await apiFetch(path, { method: "POST", json });
    setError(r.ok ? null : r.problem.detail);
    setVersion((v) => v + 1);
  };
  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const reward = String(f.get("reward") ?? "").trim();
    const r = await apiFetch("/api/marketplace/tasks", {
      json: { title: f.get("title"), description: f.get("description"), ...(reward ? { reward: Number(reward), currency: f.get("currency") } : {}) },
    });
    if (!r.ok) return setError(r.problem.detail);
    form.reset();
    setView("created");
    setVersion((v) => v + 1);
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="space-y-4">
        <div role="tablist" className="flex gap-2 border-b border-slate-200">
          {(["open", "created", "claimed"] as const).map((k) => (
            <button
              key={k}
              role="tab"
              aria-selected={view === k}
              onClick={() => setView(k)}
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${view === k ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600"}`}
            >
              {t(k === "open" ? "open" : k === "created" ? "mine" : "claimed")}
            </button>
          ))}
        </div>
        {error && <FormAlert>{error}</FormAlert>}
        {loadError ? (
          <LoadError message={loadError} onRetry={() => setVersion((v) => v + 1)} />
        ) : !items ? (
          <p className="text-slate-500">{tc("loading")}</p>
        ) : !items.length ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
        ) : (
          <ul className="space-y-3">
            {items.map((task) => (
              <li key={task.id} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="task">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-semibold" dir="auto">
                    {task.title}
                  </p>
                  <StatusBadge status={task.status} />
                  {task.reward !== null && task.currency && (
                    <span className="text-sm text-green-800">
                      {fill((m) => t("rewardValue", { reward: m.reward! }), { reward: <Price amount={task.reward} currency={task.currency} /> })}
                    </span>
                  )}
                </div>
                <p className="text-xs text-slate-500">
                  {t("by", { user: task.createdBy.username })}
                  {task.sentByAI && <AiTag />}
                </p>
                {task.description && (
                  <p className="mt-2 whitespace-pre-line text-sm [unicode-bidi:plaintext]" dir="auto">
                    {task.description}
                  </p>
                )}
                {task.result && <p className="mt-2 rounded bg-green-50 p-2 text-sm">{task.result}</p>}
                <div className="mt-3 flex flex-wrap gap-2">
                  {task.status === "open" && task.createdBy.id !== me.id && (
                    <button
                      type="button"
                      onClick={() => void act(`/api/marketplace/tasks/${task.id}/claim`)}
                      className="rounded bg-brand-600 px-3 py-1 text-sm text-white"
                    >
                      {t("claim")}
                    </button>
                  )}
                  {task.status === "open" && task.createdBy.id === me.id && (
                    <button
                      type="button"
                      onClick={() => void act(`/api/marketplace/tasks/${task.id}/cancel`)}
                      className="rounded border border-slate-300 px-3 py-1 text-sm"
                    >
                      {t("cancel")}
                    </button>
                  )}
                  {task.status === "claimed" && task.claimedBy?.id === me.id && (
                    <form
                      className="flex w-full gap-2"
                      onSubmit={(e) => {
                        e.preventDefault();
                        void act(`/api/marketplace/tasks/${task.id}/complete`, { result: new FormData(e.currentTarget).get("result") });
                      }}
                    >
                      <label className="sr-only" htmlFor={`r-${task.id}`}>
                        {t("resultLabel")}
                      </label>
                      <input
                        id={`r-${task.id}`}
                        name="result"
                        required
                        placeholder={t("resultLabel")}
                        className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1 text-sm"
                      />
                      <button type="submit" className="rounded bg-green-600 px-3 py-1 text-sm text-white">
                        {t("submitResult")}
                      </button>
                    </form>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={create} className="h-fit space-y-3 rounded-xl border border-slate-200 bg-white p-5" data-testid="task-form">
        <h2 className="font-semibold">{t("create")}</h2>
        <label className="block text-sm font-medium">
          {t("taskTitle")}
          <input name="title" required maxLength={200} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <label className="block text-sm font-medium">
          {t("taskDescription")}
          <textarea name="description" rows={4} maxLength={10000} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <MoneyFields amountName="reward" amountLabel={t("reward")} currencyLabel={t("currency")} />
        <button type="submit" className="w-full rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white">
          {t("save")}
        </button>
      </form>
    </div>
  );
}
