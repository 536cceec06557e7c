import { createCaptureMailer } from './capture';
import type { Mailer } from './mailer';
import { createSmtpMailer } from './smtp';

export type { Mail, Mailer, MailResult } from './mailer';

/** SMTP when a server is configured, the local capture otherwise (the embedded default). */
export function createMailer(options: { smtpUrl: string | undefined; from: string }): Mailer {
  return options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.from) : createCaptureMailer();
}
