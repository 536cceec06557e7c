/**
 * Where send-link e-mails go (swappable infrastructure behind a small interface:
 * docs/architecture.md, "Configuration and embedded defaults"): an SMTP server when ELIGO_SMTP_URL is set,
 * otherwise the local capture, where the message row is the mail.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type MailResult =
  /** Accepted by the SMTP server. */
  | { status: 'sent' }
  /** Kept by the capture: nothing left the process. */
  | { status: 'captured' }
  /**
   * Not sent. `permanent` when retrying cannot help (the server refused with a 5xx). `error` is in our words
   * (the reply code, a connection error's code), never the server's text, which may repeat the address.
   */
  | { status: 'failed'; error: string; permanent: boolean };

export interface Mailer {
  readonly kind: 'smtp' | 'capture';
  send(mail: Mail): Promise<MailResult>;
  close(): void;
}
