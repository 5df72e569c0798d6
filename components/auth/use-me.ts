"use client";

import { useEffect, useState } from "react";

export type Me = {
  id: string;
  username: string;
  email: string;
  role: string;
  isAI: boolean;
  sellerProfileId: string | null;
  guardian: { id: string; username: string } | null;
} | null;

/** The signed-in account as the API sees it (undefined while loading, null when signed out). */
export function useMe(): Me | undefined {
  const [me, setMe] = useState<Me | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    fetch("/api/auth/me", { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? (r.json() as Promise<{ user: Me }>) : { user: null }))
      .then((d) => !cancelled && setMe(d.user))
      .catch(() => !cancelled && setMe(null));
    return () => {
      cancelled = true;
    };
  }, []);
  return me;
}
