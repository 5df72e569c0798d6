// The e-mail sender: sends what notify() wrote to `email_outbox`, when SMTP_URL is set (without it,
// the rows stay `pending` and nothing fails). One per process, on globalThis. Every few hundred ms
// it claims due rows, and a claim pushes the row's next attempt past a lease, so another instance
// (FOR UPDATE SKIP LOCKED skips rows being claimed) or a restart after a crash mid-send does not
// send it again before the lease ends. A failure is retried with exponential backoff; after
// OUTBOX_MAX_ATTEMPTS the row is `failed` with its last error. The same statement runs on PGlite,
// where SKIP LOCKED never meets a lock (one session).
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { rawOf } from "@/lib/services/chat/raw";
import { mailTransport, type MailTransport } from "./mailer";

const BATCH = 20;
const LEASE_SECONDS = 120;
const BACKOFF_BASE_MS = 2000;
const BACKOFF_MAX_MS = 30 * 60 * 1000;

type Claimed = { id: string; to: string; subject: string; text: string; attempts: number };

const CLAIM = `update email_outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
  where id in (
    select id from email_outbox where status = 'pending' and next_attempt_at <= now()
    order by next_attempt_at limit $1 for update skip locked)
  returning id, "to", subject, text, attempts`;
const SENT = `update email_outbox set status = 'sent', sent_at = now(), last_error = null where id = $1`;
const FAILED = `update email_outbox set status = case when attempts >= $3 then 'failed' else 'pending' end,
  last_error = $2, next_attempt_at = now() + make_interval(secs => $4) where id = $1`;

class OutboxSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private transport: MailTransport | null = null;

  /** Start sending when SMTP_URL is set; a no-op otherwise. */
  start(): void {
    const e = env();
    if (!e.SMTP_URL || this.timer) return;
    this.transport = mailTransport(e.SMTP_URL);
    this.timer = setInterval(() => this.tick(), e.OUTBOX_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stop claiming; a send under way finishes (and is recorded) first. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
    this.transport?.close();
    this.transport = null;
  }

  private tick() {
    if (this.running || !this.transport) return;
    this.running = this.drain(this.transport)
      .catch((err: unknown) => console.error("e-mail outbox: sending failed", err))
      .finally(() => (this.running = null));
  }

  private async drain(transport: MailTransport) {
    const db = await getDb();
    const raw = rawOf(db);
    const e = env();
    for (;;) {
      const rows = await raw<Claimed>(CLAIM, [BATCH, LEASE_SECONDS]);
      for (const r of rows) {
        try {
          await transport.send({ from: e.MAIL_FROM, to: r.to, subject: r.subject, text: r.text });
          await raw(SENT, [r.id]);
        } catch (err) {
          const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (Number(r.attempts) - 1)) / 1000;
          await raw(FAILED, [r.id, String((err as Error).message ?? err).slice(0, 1000), e.OUTBOX_MAX_ATTEMPTS, delay]);
        }
      }
      if (rows.length < BATCH || !this.timer) return;
    }
  }
}

const KEY = Symbol.for("expo-trade.email-outbox");
const g = globalThis as typeof globalThis & { [KEY]?: OutboxSender };
export const outboxSender: OutboxSender = (g[KEY] ??= new OutboxSender());
