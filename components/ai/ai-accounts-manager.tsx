"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { Link } from "@/lib/i18n/navigation";
import { AccountCard } from "./account-card";
import { ApprovalsQueue } from "./approvals-queue";
import { AuditLog } from "./audit-log";
import type { AiAccount } from "./types";

export function AiAccountsPage() {
  return <SignInGate humansOnly>{() => <AiAccountsManager />}</SignInGate>;
}

function AiAccountsManager() {
  const t = useTranslations("AiAccounts");
  const tc = useTranslations("Common");
  const [accounts, setAccounts] = useState<AiAccount[] | null>(null);
  const [error, setError] = useState(false);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    void apiFetch<{ accounts: AiAccount[] }>("/api/ai/accounts").then((r) => {
      setError(!r.ok);
      if (r.ok) setAccounts(r.data.accounts);
    });
  }, []);

  if (error) return <p role="alert">{tc("errorGeneric")}</p>;
  if (!accounts) return <p className="py-12 text-center text-slate-500">{tc("loading")}</p>;
  if (accounts.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <p className="text-slate-600">{t("empty")}</p>
        <Link href="/ai-register" className="mt-4 inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white">
          {t("create")}
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-8">
      <ApprovalsQueue onDecided={() => setRefresh((n) => n + 1)} />
      {accounts.map((a) => (
        <div key={a.aiUserId} className="space-y-4">
          <AccountCard
            account={a}
            onChange={(next) => {
              setAccounts((list) => list?.map((x) => (x.aiUserId === next.aiUserId ? next : x)) ?? null);
              setRefresh((n) => n + 1);
            }}
          />
          <AuditLog aiUserId={a.aiUserId} refreshKey={refresh} />
        </div>
      ))}
      {accounts.length < 2 && (
        <Link href="/ai-register" className="inline-block rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
          {t("create")}
        </Link>
      )}
    </div>
  );
}
