// notify(): tell someone that something happened (contract 9.4). Call it with the transaction of the
// action it reports: the row, its e-mail in the outbox and the live push are written by one
// statement in that transaction, so a rolled-back action notifies nobody.
//
// Live push: the same NOTIFY channel as chat deliveries (lib/realtime/fanout.ts), which the
// database releases only at commit to every instance's LISTEN; each instance hands the frame
// `{ type: "notification", id, kind, subjectId, title }` to the sockets of that user it holds (an
// AI account's only while it holds `chat.read`, as for chat). E-mail: every human recipient's
// notification gets an `email_outbox` row (pending); ./outbox.ts sends them when SMTP_URL is set.
// AI accounts get no e-mail (their guardian is notified of approvals instead).
//
// For other verbs (offers, ...): `notify(tx, { userId, kind: "offer", subjectId: offer.id, title:
// "New offer: 5,000 x Desk lamp at 11.80 USD", link: "/buyer", event: "offer.new", params: {...} })`.
// `event` + `params` let pages translate (messages/*.json, Notifications.events.<event>); the
// English `title` is what the API, the live frame and the e-mail carry.
import type { Db } from "@/lib/db/client";
import type { NotificationKind } from "@/lib/db/schema/notify";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { CHAT_CHANNEL } from "@/lib/realtime/fanout";
import { rawOf } from "@/lib/services/chat/raw";

export type NotifyInput = {
  userId: string;
  kind: NotificationKind;
  /** The record it is about (inquiry, offer, order, conversation, approval). */
  subjectId: string;
  /** English, one line. */
  title: string;
  body?: string | null;
  /** A site path without locale, e.g. `/seller/inquiries`. */
  link: string;
  /** What happened (`offer.new`, `order.confirmed`); defaults to `kind`. */
  event?: string;
  params?: Record<string, string | number>;
  /**
   * Skip when this user already has an unread notification of this kind about this subject (chat:
   * one per conversation until read, not one per message).
   */
  coalesce?: boolean;
};

const TITLE_MAX = 200;
const BODY_MAX = 500;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// One statement: the rows (minus coalesced ones), their e-mails for people (not AI accounts, not
// disabled accounts), and one NOTIFY per row on the chat channel, released at commit.
const INSERT = `with x as (
    select * from json_to_recordset($1::json) as x(id text, m text, u text, k text, s text, t text, b text, l text, e text, p jsonb, c boolean, mt text)
  ), ins as (
    insert into notifications (id, user_id, kind, subject_id, title, body, link, event, params)
    select x.id, x.u, x.k, x.s, x.t, x.b, x.l, x.e, coalesce(x.p, '{}'::jsonb) from x
    where not (x.c and exists (
      select 1 from notifications n where n.user_id = x.u and n.kind = x.k and n.subject_id = x.s and n.read_at is null))
    returning id, user_id, kind, subject_id, title
  ), mail as (
    insert into email_outbox (id, "to", subject, text, notification_id)
    select x.m, u.email, x.t, x.mt, ins.id from ins
    join x on x.id = ins.id
    join users u on u.id = ins.user_id
    where u.guardian_id is null and not u.disabled
  )
  select count(pg_notify($2, json_build_object('n', json_build_object(
    'u', user_id, 'id', id, 'kind', kind, 'subjectId', subject_id, 'title', title))::text)) as n from ins`;

/** Notify one or more people inside the caller's transaction. Returns how many rows were written. */
export async function notify(db: Db, input: NotifyInput | NotifyInput[]): Promise<number> {
  const list = (Array.isArray(input) ? input : [input]).filter((i) => i.userId);
  if (!list.length) return 0;
  const site = env().PUBLIC_URL.replace(/\/+$/, "");
  const rows = list.map((i) => {
    const title = clip(i.title.replace(/\s+/g, " ").trim(), TITLE_MAX);
    const body = i.body ? clip(i.body.trim(), BODY_MAX) : null;
    return {
      id: newId(),
      m: newId(),
      u: i.userId,
      k: i.kind,
      s: i.subjectId,
      t: title,
      b: body,
      l: i.link,
      e: i.event ?? i.kind,
      p: i.params ?? {},
      c: i.coalesce ?? false,
      mt: mailText(title, body, `${site}${i.link}`),
    };
  });
  const [r] = await rawOf(db)<{ n: number | string }>(INSERT, [JSON.stringify(rows), CHAT_CHANNEL]);
  return Number(r?.n ?? 0);
}

function mailText(title: string, body: string | null, url: string): string {
  return [title, "", ...(body ? [body, ""] : []), `Open: ${url}`, "", "You receive this because of activity on your Expo Trade account."].join("\n");
}
