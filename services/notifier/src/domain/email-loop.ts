import { escapeHtml, verificationLink, type MessageContent } from './send-link';

/**
 * The email-loop message (issue 22): the one-time code a person asked for by submitting their organization
 * email, with how long it is valid and a link back to the hosted page. The code is a credential: the link
 * carries it in the URL fragment (#emailToken=...), which a browser never sends to a server, so that it stays
 * out of access logs and proxies. No personal data goes into the text (the address is only the recipient).
 * English only for now.
 */

export const EMAIL_LOOP_SUBJECT = 'Your verification code';

/**
 * The hosted page of the program (the send-link template, ELIGO_SEND_LINK_URL, with `{programId}`; a
 * `{trackingId}` in it is left empty) with `?verificationId=` added and the code in the fragment.
 */
export function emailLoopLink(
  template: string,
  programId: string,
  verificationId: string,
  code: string,
): string {
  const url = new URL(verificationLink(template, programId, ''));
  url.searchParams.set('verificationId', verificationId);
  url.hash = `emailToken=${encodeURIComponent(code)}`;
  return url.toString();
}

/** Whole minutes from `now` to `expiresAt`, rounded, at least 1; undefined without an expiry. */
export function minutesLeft(expiresAt: Date | undefined, now: Date): number | undefined {
  if (!expiresAt) return undefined;
  return Math.max(1, Math.round((expiresAt.getTime() - now.getTime()) / 60_000));
}

const validity = (minutes: number | undefined): string =>
  minutes === undefined
    ? 'It can be used once.'
    : `It can be used once, within ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;

export function emailLoopContent(input: {
  code: string;
  /** emailLoopLink(...) */
  link: string;
  expiresAt: Date | undefined;
  now: Date;
}): MessageContent {
  const { code, link } = input;
  const valid = validity(minutesLeft(input.expiresAt, input.now));
  const text = [
    'Hello,',
    '',
    'Your verification code is:',
    '',
    `    ${code}`,
    '',
    `${valid} Enter it on the verification page, or open this link to continue:`,
    '',
    link,
    '',
    'If you did not ask for this code, you can ignore this message.',
  ].join('\n');
  const href = escapeHtml(link);
  const html =
    '<!doctype html><html><body style="font-family:sans-serif">' +
    '<p>Hello,</p><p>Your verification code is:</p>' +
    '<p style="font-size:32px;font-weight:bold;letter-spacing:6px;font-family:monospace">' +
    `${escapeHtml(code)}</p>` +
    `<p>${escapeHtml(valid)} Enter it on the verification page, or continue here:</p>` +
    `<p><a href="${href}">Continue the verification</a></p>` +
    `<p style="color:#666">Or copy this link: ${href}</p>` +
    '<p style="color:#666">If you did not ask for this code, you can ignore this message.</p></body></html>';
  return { subject: EMAIL_LOOP_SUBJECT, text, html };
}
