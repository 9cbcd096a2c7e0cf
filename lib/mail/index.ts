import nodemailer, { type Transporter } from "nodemailer";
import { getConfig } from "@/lib/config";

// Outgoing mail: invitations and password resets (docs/adr/0153-mail-and-the-link-fallback.md).
// With SMTP_URL set, a message goes through nodemailer to that server; without it, the instance
// has no mail and each caller falls back to its link: the admin is shown an invitation's, and
// the server log gets every link (the operator hands it over). A token never reaches the log
// while mail is configured.

/** One message: its plain text, and the same as simple HTML built from escaped parts. */
export type MailMessage = { to: string; subject: string; text: string; html: string };

/** What became of a link: mailed, or (no SMTP_URL) written to the server log for the operator. */
export type Delivery = "email" | "link";

const transporterKey = Symbol.for("reelbind.mail-transporter");
type TransporterHolder = { [transporterKey]?: { url: string; transporter: Transporter } };

/** One pooled transport per SMTP_URL for the process (a test that changes SMTP_URL gets a new one). */
function transporterFor(url: string): Transporter {
  const holder = globalThis as TransporterHolder;
  if (holder[transporterKey]?.url !== url) {
    // Bounded waits: a mail server that does not answer fails the send instead of holding the request.
    holder[transporterKey] = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  return holder[transporterKey].transporter;
}

/** Whether this instance sends mail (SMTP_URL is set). */
export function mailConfigured(): boolean {
  return getConfig().mail !== null;
}

/** Sends one message through SMTP_URL; throws when mail is not configured or the server refuses it. */
export async function sendMail(message: MailMessage): Promise<void> {
  const mail = getConfig().mail;
  if (!mail) throw new Error("Mail is not configured (SMTP_URL is not set).");
  await transporterFor(mail.smtpUrl).sendMail({ from: mail.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
}

/** Writes a link the instance could not mail to the server log, for the operator to hand over. */
export function logUndeliveredLink(what: string, to: string, url: string): void {
  console.log(`Mail is not configured (SMTP_URL): ${what} for ${to}: ${url}`);
}

const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);
}

/**
 * A message of a few paragraphs and one link, as plain text and as simple HTML. Every part is
 * text: names and addresses people chose are escaped, never markup.
 */
export function linkMessage({ to, subject, paragraphs, link, linkLabel, after = [] }: { to: string; subject: string; paragraphs: string[]; link: string; linkLabel: string; after?: string[] }): MailMessage {
  const text = [...paragraphs, link, ...after].join("\n\n") + "\n";
  const p = (part: string) => `<p style="margin:0 0 16px">${escapeHtml(part)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">',
    ...paragraphs.map(p),
    `<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(linkLabel)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#475569">Or open this address: ${escapeHtml(link)}</p>`,
    ...after.map(p),
    "</body></html>",
  ].join("\n");
  return { to, subject, text, html };
}
