import type { Mailer } from '../app/ports';
import { createCaptureMailer } from './capture-mailer';
import { createSmtpMailer } from './smtp-mailer';

/** SMTP when a server is configured, the local capture otherwise (the embedded default). */
export function createMailer(options: { smtpUrl: string | undefined; from: string }): Mailer {
  return options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.from) : createCaptureMailer();
}
