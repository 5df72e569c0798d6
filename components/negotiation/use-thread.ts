"use client";

// One negotiation as the caller sees it (GET /api/offers/{id}), kept live: the other side's offer,
// decline or acceptance reaches us as a `notification` frame on the chat socket (contract 9.4),
// and we read the thread again rather than patch it, so what is shown is always the server's view.
import { useCallback, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { connectChat } from "@/components/chat/chat-client";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import type { OfferDetail } from "@/lib/schemas/offers";

export type Detail = z.infer<typeof OfferDetail>;
export type Thread = Detail["thread"];
export type Offer = Thread["offers"][number];

export function useThread(offerId: string) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const seq = useRef(0);

  // Two reads in flight (a frame during our own action): only the newest answer counts.
  const read = useCallback(async () => {
    const mine = ++seq.current;
    const r = await apiFetch<Detail>(`/api/offers/${encodeURIComponent(offerId)}`);
    return mine === seq.current ? r : null;
  }, [offerId]);
  const apply = useCallback((r: Awaited<ReturnType<typeof read>>) => {
    if (!r) return;
    if (r.ok) {
      setDetail(r.data);
      setProblem(null);
    } else setProblem(r.problem);
  }, []);
  const reload = useCallback(() => read().then(apply), [read, apply]);

  useEffect(() => {
    const counter = seq;
    void read().then(apply);
    const socket = connectChat(
      (f) => {
        // Offers and the orders they become concern this page; a frame about another thread costs one read.
        if (f.type === "notification" && (f.kind === "offer" || f.kind === "order")) void read().then(apply);
        // Frames sent while the socket was away are lost: read again after every (re)connect.
        if (f.type === "ready") void read().then(apply);
      },
      () => {},
    );
    return () => {
      counter.current++;
      socket.close();
    };
  }, [read, apply]);

  return { detail, problem, reload };
}
