import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './topic-recorder';

/** One mail as the SMTP server received it. */
export interface CapturedMail {
  from: string;
  to: string[];
  /** The whole message as sent (headers and body, as transmitted). */
  raw: string;
}

/** A mail's text as written, without the quoted-printable transfer encoding (soft breaks, =3D). */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:{port}: what ELIGO_SMTP_URL is set to. */
  url: string;
  mails(): CapturedMail[];
  /** Resolves with the first mail `match` accepts, or fails after `timeoutMs`. */
  waitForMail(match: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on a free local port that keeps every mail it accepts: the
 * notifier's send-link tests send through SMTP exactly as in production. No TLS and no authentication:
 * it listens on 127.0.0.1 only, for the duration of a test.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    // A send-link mail is small; anything large is a bug worth seeing.
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails: () => [...mails],
    waitForMail: (match, timeoutMs = 15_000) =>
      waitFor('a matching mail', () => mails.find(match), timeoutMs),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
