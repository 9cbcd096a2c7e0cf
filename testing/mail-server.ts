import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port";

// A real SMTP server on loopback (the smtp-server package) for tests of what the app mails: it
// takes every message (no TLS, no authentication: the app connects with smtp://127.0.0.1:port)
// and keeps it, parsed with mailparser. A test waits for a message with a cap, never sleeps.

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; html: string };

export type MailServer = {
  /** What the app's SMTP_URL is set to. */
  url: string;
  /** Every message taken so far, oldest first. */
  messages: ReceivedMail[];
  /** The first message to `to` (matching `subject` when given) not taken by an earlier call, waiting for it up to `timeoutMs`. */
  next: (to: string, options?: { subject?: RegExp; timeoutMs?: number }) => Promise<ReceivedMail>;
  /** The messages sent to `to` so far. */
  to: (to: string) => ReceivedMail[];
  stop: () => Promise<void>;
};

const addressesOf = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((entry: { value?: { address?: string }[] }) => (entry.value ?? []).map((address) => (address.address ?? "").toLowerCase()));
};

export async function startMailServer(): Promise<MailServer> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: addressesOf(parsed.from)[0] ?? "",
            to: addressesOf(parsed.to),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const find = (to: string, subject?: RegExp) => messages.find((message) => !taken.has(message) && message.to.includes(to.toLowerCase()) && (!subject || subject.test(message.subject)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (to) => messages.filter((message) => message.to.includes(to.toLowerCase())),
    next: (to, { subject, timeoutMs = 15_000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = find(to, subject);
          if (!found) return false;
          taken.add(found);
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No mail to ${to}${subject ? ` matching ${subject}` : ""} within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link to the app in a mail's plain text (the accept or reset link). */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S+${pathPrefix.replace(/[/]/g, "\\/")}\\S+`));
  if (!match) throw new Error(`No ${pathPrefix} link in the mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}
