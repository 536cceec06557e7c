import type { Mailer } from '../app/ports';

/**
 * The default without an SMTP server (a laptop, a demo): no network at all. The message row, with its
 * encrypted recipient, subject and body, is the captured mail that operators read through ListMessages.
 */
export function createCaptureMailer(): Mailer {
  return {
    kind: 'capture',
    send: async () => ({ status: 'captured' }),
    close: () => undefined,
  };
}
