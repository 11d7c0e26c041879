import type { Transporter } from 'nodemailer';
import { isEmail } from '../lib/validate.js';
import type { EmailMessage } from '../domain/events/outbox.js';
import { SendError, Transport } from './outbox.js';

export interface SmtpOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465; query options as nodemailer reads them. */
  url: string;
  /** Sender: `receipts@example.com` or `Shop <receipts@example.com>`; a message's from_name replaces the name. */
  from: string;
  /** Connection, greeting and socket timeouts in ms (a dead server must not hold the worker for minutes). */
  timeoutMs?: number;
}

/** Splits `Name <address>` into its parts. */
export function parseFrom(from: string): { name?: string; address: string } {
  const m = from.match(/^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/);
  return m ? { name: m[1] || undefined, address: m[2].trim() } : { address: from.trim() };
}

/**
 * Email over SMTP with nodemailer: one connection per message (the outbox worker sends in small
 * batches, so a pool would mostly idle). An SMTP 5xx reply is permanent: the outbox gives up on
 * that message at once instead of retrying it for hours. nodemailer (39 modules, ~40 ms of a
 * start's CPU) is loaded by the first message, not by every start.
 */
export function smtpTransport(opts: SmtpOptions): Transport<EmailMessage> {
  const timeout = opts.timeoutMs ?? 15_000;
  let mailer: Promise<Transporter> | undefined;
  const open = () => (mailer ??= import('nodemailer').then(({ createTransport }) => createTransport({
    url: opts.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
  } as Parameters<typeof createTransport>[0])));
  const from = parseFrom(opts.from);
  return {
    async send(message, delivery) {
      // One mailbox, one recipient: a stored value that is not a single address (a list, a display
      // name, CR/LF) is never handed to SMTP, and the address goes as an object so nodemailer does
      // not parse it as a list; the envelope names exactly that one recipient.
      if (!isEmail(message.to)) throw new SendError('the recipient is not a single email address', true);
      const to = { name: '', address: message.to };
      try {
        await (await open()).sendMail({
          from: { name: message.from_name ?? from.name ?? '', address: from.address },
          to,
          envelope: { from: from.address, to: [to] } as never,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: { 'X-Tessera-Message': `${delivery.env}-${delivery.id}` },
        });
      } catch (err) {
        const e = err as { message?: string; permanent?: boolean; responseCode?: number; code?: string };
        const detail = [e.code, e.responseCode].filter(Boolean).join(' ');
        throw new SendError(`${detail ? `${detail}: ` : ''}${e.message ?? String(err)}`, e.permanent === true);
      }
    },
    close() {
      void mailer?.then((m) => m.close(), () => {});
    },
  };
}
