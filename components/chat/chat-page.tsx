"use client";

import { useSearchParams } from "next/navigation";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { isolate } from "@/components/ui/price";
import type { Me } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { AiTag } from "@/components/ui/status-badge";
import { connectChat, type ChatFrame, type ChatStatus } from "./chat-client";

type Conversation = {
  id: string;
  otherUser: { id: string; username: string; companyName: string | null; isAI: boolean };
  product: { id: string; title: string } | null;
  unreadCount: number;
  updatedAt: string;
  lastMessage: { content: string } | null;
};
type Message = { id: string; conversationId: string; from: string; content: string; sentByAI: boolean; createdAt: string };

export function ChatPage() {
  return <SignInGate>{(me) => <Chat me={me} />}</SignInGate>;
}

function Chat({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("Chat");
  const tf = useTranslations("Flows");
  const format = useFormatter();
  // The address as the router has it: on an in-app navigation window.location is still the old page.
  const params = useSearchParams();
  const [conversations, setConversations] = useState<Conversation[] | null>(null);
  const [active, setActive] = useState<string | null>(params.get("conversation"));
  const [messages, setMessages] = useState<Message[]>([]);
  const [status, setStatus] = useState<ChatStatus>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [newChat, setNewChat] = useState<{ to: string; productId: string; title: string } | null>(null);
  const activeRef = useRef(active);
  useEffect(() => {
    activeRef.current = active;
  }, [active]);
  const bottom = useRef<HTMLDivElement>(null);

  const loadConversations = useCallback(
    () =>
      apiFetch<{ conversations: Conversation[] }>("/api/chat/conversations?limit=100").then((r) => {
        if (r.ok) setConversations(r.data.conversations);
      }),
    [setConversations],
  );
  const loadMessages = useCallback(
    (id: string) =>
      apiFetch<{ messages: Message[] }>(`/api/chat/messages/${encodeURIComponent(id)}?limit=100`).then((r) => {
        if (r.ok && activeRef.current === id) setMessages(r.data.messages);
        void loadConversations();
      }),
    [loadConversations],
  );

  // Starting from a product page: find the supplier to write to.
  useEffect(() => {
    const productId = params.get("productId");
    if (!productId) return;
    void apiFetch<{ product: { id: string; title: string; sellerUserId: string | null } }>(`/api/products/${encodeURIComponent(productId)}`).then((r) => {
      // `to`: a seller writing to the buyer of an order about that product (the seller order table).
      if (!r.ok) return;
      const to = params.get("to") ?? r.data.product.sellerUserId;
      if (to) setNewChat({ to, productId, title: r.data.product.title });
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read the URL once
  }, []);

  useEffect(() => {
    void loadConversations();
    const conn = connectChat((f: ChatFrame) => {
      if (f.type === "ready" && activeRef.current) void loadMessages(activeRef.current);
      if (f.type === "message") {
        if (f.conversationId === activeRef.current) setMessages((m) => (m.some((x) => x.id === f.id) ? m : [...m, f]));
        void loadConversations();
      }
    }, setStatus);
    return () => conn.close();
  }, [loadConversations, loadMessages]);

  useEffect(() => {
    if (active) void loadMessages(active);
  }, [active, loadMessages]);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  async function send(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const content = draft.trim();
    if (!content) return;
    const body = active ? { conversationId: active, content } : newChat ? { to: newChat.to, productId: newChat.productId, content } : null;
    if (!body) return;
    setError(null);
    const r = await apiFetch<{ message: Message }>("/api/chat/messages", { json: body });
    if (!r.ok) return setError(r.problem.detail);
    setDraft("");
    setNewChat(null);
    setActive(r.data.message.conversationId);
    setMessages((m) => (m.some((x) => x.id === r.data.message.id) ? m : [...m, r.data.message]));
    void loadConversations();
  }

  const current = conversations?.find((c) => c.id === active);
  return (
    // On a phone the list and the conversation share one column: the list gets at most a third of the
    // height and scrolls, the conversation the rest, so its form (and Send) is never pushed out of the box.
    <div
      className="grid h-[70vh] min-h-[28rem] grid-cols-[minmax(0,1fr)] grid-rows-[minmax(0,auto)_minmax(0,1fr)] overflow-hidden rounded-xl border border-slate-200 bg-white md:grid-cols-[18rem_minmax(0,1fr)] md:grid-rows-[minmax(0,1fr)]"
      data-testid="chat-layout"
    >
      <aside className="flex max-h-[33vh] min-h-0 flex-col border-b border-slate-200 md:max-h-none md:border-b-0 md:border-e" aria-label={t("conversations")}>
        <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
          <h2 className="font-semibold">{t("conversations")}</h2>
          <span className={`text-xs ${status === "online" ? "text-green-700" : "text-amber-700"}`} role="status" data-testid="chat-status" data-status={status}>
            {status === "online" ? t("online") : status === "connecting" ? t("connecting") : t("offline")}
          </span>
        </div>
        <ul className="flex-1 overflow-y-auto">
          {conversations?.length === 0 && !newChat && <li className="p-4 text-sm text-slate-500">{t("empty")}</li>}
          {newChat && <li className="border-b border-slate-100 bg-brand-50 px-4 py-3 text-sm">{t("newTo", { product: isolate(newChat.title) })}</li>}
          {conversations?.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => {
                  setNewChat(null);
                  setActive(c.id);
                }}
                aria-current={c.id === active}
                className={`w-full border-b border-slate-100 px-4 py-3 text-start hover:bg-slate-50 ${c.id === active ? "bg-brand-50" : ""}`}
                data-testid="conversation"
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="min-w-0 truncate font-medium" data-testid="conversation-name">
                    <bdi dir="auto">{c.otherUser.companyName ?? c.otherUser.username}</bdi>
                    {c.otherUser.isAI && <AiTag />}
                  </span>
                  {c.unreadCount > 0 && (
                    <span className="rounded-full bg-brand-600 px-2 text-xs text-white" data-testid="unread">
                      {t("unread", { count: c.unreadCount })}
                    </span>
                  )}
                </span>
                {c.otherUser.companyName && (
                  <span className="block truncate text-xs text-slate-500">
                    {c.otherUser.isAI ? tf("viaAi", { agent: c.otherUser.username }) : <bdi dir="auto">{c.otherUser.username}</bdi>}
                  </span>
                )}
                {c.product && <span className="block truncate text-xs text-slate-500">{t("about", { product: isolate(c.product.title) })}</span>}
                {c.lastMessage && (
                  <span dir="auto" className="block truncate text-start text-xs text-slate-600">
                    {c.lastMessage.content}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="flex min-h-0 flex-col" aria-label={current ? (current.otherUser.companyName ?? current.otherUser.username) : t("title")}>
        {!active && !newChat ? (
          <p className="m-auto text-slate-500">{t("select")}</p>
        ) : (
          <>
            <ol className="flex-1 space-y-2 overflow-y-auto p-4" aria-live="polite" data-testid="messages">
              {messages.map((m) => {
                const mine = m.from === me.id;
                return (
                  <li key={m.id} className={`flex ${mine ? "justify-end" : "justify-start"}`} data-testid="message">
                    <div className={`max-w-[80%] rounded-2xl px-4 py-2 text-sm ${mine ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-900"}`}>
                      <p className="whitespace-pre-line break-words">
                        <bdi dir="auto" data-testid="message-text">
                          {m.content}
                        </bdi>
                        {m.sentByAI && <AiTag />}
                      </p>
                      <p className={`mt-1 text-[10px] ${mine ? "text-brand-100" : "text-slate-500"}`}>
                        {format.dateTime(new Date(m.createdAt), { timeStyle: "short" })}
                      </p>
                    </div>
                  </li>
                );
              })}
              <div ref={bottom} />
            </ol>
            {error && (
              <div className="px-4">
                <FormAlert>{error}</FormAlert>
              </div>
            )}
            <form onSubmit={send} className="flex min-w-0 gap-2 border-t border-slate-200 p-3" data-testid="chat-form">
              <label htmlFor="chat-input" className="sr-only">
                {t("placeholder")}
              </label>
              <textarea
                id="chat-input"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && !e.shiftKey) {
                    e.preventDefault();
                    e.currentTarget.form?.requestSubmit();
                  }
                }}
                rows={1}
                maxLength={5000}
                placeholder={t("placeholder")}
                className="min-w-0 flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2"
              />
              <button
                type="submit"
                disabled={!draft.trim()}
                className="shrink-0 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-50"
              >
                {t("send")}
              </button>
            </form>
          </>
        )}
      </section>
    </div>
  );
}
