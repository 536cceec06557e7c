import { createTransport } from 'nodemailer';
import type { Mailer, MailResult } from '../app/ports';

/** Each phase of an SMTP conversation; a server that hangs must not hold a message's lease for long. */
const SMTP_TIMEOUT_MS = 10_000;

/** Sends through the SMTP server of ELIGO_SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(
    {
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    },
    { from },
  );
  return {
    kind: 'smtp',
    async send(mail): Promise<MailResult> {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        return { status: 'sent' };
      } catch (err) {
        return smtpFailure(err);
      }
    },
    close: () => transport.close(),
  };
}

/**
 * nodemailer's error messages may quote the server's reply and so the recipient: only the reply code or the
 * error code is kept. A 5xx reply is permanent (RFC 5321); 4xx replies and connection errors are retried.
 */
export function smtpFailure(err: unknown): MailResult {
  const { responseCode, code } = (err ?? {}) as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') {
    return {
      status: 'failed',
      error: `SMTP server answered ${responseCode}`,
      permanent: responseCode >= 500 && responseCode < 600,
    };
  }
  return {
    status: 'failed',
    error: `SMTP failed (${typeof code === 'string' ? code : 'unknown error'})`,
    permanent: false,
  };
}
