// The SMTP side of the outbox: a nodemailer transport from SMTP_URL
// (`smtp://user:pass@host:587`, `smtps://...:465`; nodemailer reads options from the URL's query).
import nodemailer from "nodemailer";

export type Mail = { from: string; to: string; subject: string; text: string };
export type MailTransport = { send: (mail: Mail) => Promise<void>; close: () => void };

export function mailTransport(url: string): MailTransport {
  const t = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await t.sendMail(mail);
    },
    close: () => t.close(),
  };
}
