// Storing chat messages, any number in one transaction (the socket's group commit; REST sends a
// group of one). Every message is checked on its own and refused on its own (the others of its
// group go on); the accepted ones are written with one statement (the rows, the conversations'
// last activity and the senders' read positions) and delivered with one NOTIFY per 7.9 kB of
// payload, which the database releases only when the transaction commits.
import { ApiError } from "@/lib/errors";
import type { SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { notifyMessages, type Sent } from "@/lib/realtime/fanout";
import { chatMessagesStored } from "@/lib/services/notify/events";
import type { ChatMessage, SendMessageInput } from "@/lib/schemas/chat";
import { auditOutcome, permissionRefusal, type AuditedAction } from "@/lib/gate/gate";
import { messageId } from "./ids";
import { rawOf } from "./raw";
import { findOrCreateConversations, loadFacts, resolveTarget, type Target } from "./targets";

export type SendEntry = {
  actor: SignedInActor;
  /** The message, or why its frame could not be read (answered, and audited, in its turn). */
  input: SendMessageInput | ApiError;
  /** The socket it came from: that socket gets an ack, the sender's other sockets the message. */
  originSocket?: string;
  /** Socket frames: the AI permission gate and the audit rows of the gate (lib/gate/gate.ts), in this transaction. */
  audit?: AuditedAction<ChatMessage>;
};

export type SendResult = { ok: true; message: ChatMessage } | { ok: false; error: ApiError };

// The rows, the conversations' last activity and the senders' read positions in one statement.
// Stamps: the transaction's time, a microsecond apart in queue order, and never at or before the
// previous group of this process (so created_at, like the ids, follows the order of the acks).
const INSERT = `with ins as (
    insert into messages (id, conversation_id, sender_id, content, sent_by_ai, created_at)
    select x.id, x.c, x.s, x.t, x.ai, greatest(now(), $2::timestamptz + interval '1 microsecond') + x.n * interval '1 microsecond'
    from json_to_recordset($1::json) as x(id text, c text, s text, t text, ai boolean, n int)
    returning id, conversation_id, sender_id, created_at
  ), touched as (
    update conversations c set last_message_at = greatest(c.last_message_at, m.at)
    from (select conversation_id, max(created_at) as at from ins group by conversation_id) m
    where c.id = m.conversation_id
  ), seen as (
    -- Writing in a conversation means having read it up to one's own message.
    insert into conversation_reads (conversation_id, user_id, last_read_at)
    select conversation_id, sender_id, max(created_at) from ins group by conversation_id, sender_id
    on conflict (conversation_id, user_id) do update set last_read_at = greatest(conversation_reads.last_read_at, excluded.last_read_at)
  )
  select id, created_at::text as stamp, floor(extract(epoch from created_at) * 1000)::float8 as ms from ins`;

const KEY = Symbol.for("expo-trade.chat-last-stamp");
const g = globalThis as typeof globalThis & {
  [KEY]?: { stamp: string | null };
};
const last = (g[KEY] ??= { stamp: null });

/** Store `entries` in `tx`: one answer per entry, in order. Throws only when the database fails. */
export async function storeBatch(tx: Db, entries: SendEntry[]): Promise<SendResult[]> {
  const raw = rawOf(tx);
  const results: (SendResult | null)[] = entries.map(() => null);
  const fail = (i: number, error: ApiError) => (results[i] = { ok: false, error });

  // The order of the checks is the gate's: the permission, then the frame, then the rules.
  entries.forEach((e, i) => {
    const refusal = e.audit ? permissionRefusal(e.actor, e.audit.permission) : null;
    if (refusal) fail(i, refusal);
    else if (e.input instanceof ApiError) fail(i, e.input);
  });
  const inputs = (i: number) => entries[i]!.input as SendMessageInput;
  const open = entries.map((_, i) => i).filter((i) => !results[i]);
  const facts = await loadFacts(
    raw,
    open.map((i) => inputs(i)),
  );
  const targets = new Map<number, Target>();
  for (const i of open) {
    try {
      targets.set(i, await resolveTarget(tx, facts, entries[i]!.actor, inputs(i)));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      fail(i, err);
    }
  }
  await findOrCreateConversations(raw, [...targets.values()]);

  const rows = [...targets].map(([i, t], n) => {
    const e = entries[i]!;
    return {
      i,
      id: messageId(),
      c: t.conversationId!,
      s: e.actor.user.id,
      t: inputs(i).content,
      ai: e.actor.type === "ai",
      n,
      to: t.otherId,
      // Sender and recipient get it anyway; the rest of a store's side gets a copy.
      cc: t.cc.filter((u) => u !== e.actor.user.id && u !== t.otherId),
    };
  });
  const sent: Sent[] = [];
  if (rows.length) {
    const stored = await raw<{ id: string; stamp: string; ms: number }>(INSERT, [
      JSON.stringify(rows.map(({ i: _i, to: _to, cc: _cc, ...r }) => r)),
      last.stamp,
    ]);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const r of rows) {
      const s = byId.get(r.id)!;
      const message: ChatMessage = {
        id: r.id,
        conversationId: r.c,
        from: r.s,
        to: r.to,
        content: r.t,
        sentByAI: r.ai,
        createdAt: new Date(Number(s.ms)).toISOString(),
      };
      results[r.i] = { ok: true, message };
      sent.push({ message, originSocket: entries[r.i]!.originSocket, ...(r.cc.length ? { cc: r.cc } : {}) });
    }
    // The group's last row carries its latest stamp.
    last.stamp = byId.get(rows[rows.length - 1]!.id)!.stamp;
  }

  // AI accounts' rows: each account's in the order of its messages, accounts in a fixed order so
  // two groups on two instances never wait on each other's chain locks.
  const audited = entries.map((e, i) => ({ e, i })).filter(({ e }) => e.audit && e.actor.type === "ai");
  audited.sort((x, y) => (x.e.actor.user.id < y.e.actor.user.id ? -1 : x.e.actor.user.id > y.e.actor.user.id ? 1 : x.i - y.i));
  for (const { e, i } of audited) {
    const r = results[i]!;
    await auditOutcome(tx, e.actor, e.audit!, r.ok ? { result: r.message } : { error: r.error });
  }

  await notifyMessages(raw, sent);
  // Recipients not connected learn of it as a notification (one per conversation until read).
  await chatMessagesStored(
    tx,
    sent.map(({ message: m }) => ({ conversationId: m.conversationId, from: m.from, to: m.to, content: m.content })),
  );
  return results as SendResult[];
}
