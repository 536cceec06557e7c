/**
 * The send-link message: a person is sent the program's verification link. The link carries the caller's
 * tracking id so that the verification that follows is tied to it; no personal data goes into the text.
 */

const PLACEHOLDER = /\{(programId|trackingId)\}/g;

/** Throws when the template does not make an http(s) URL (checked at boot). */
export function checkLinkTemplate(template: string): void {
  let url: URL;
  try {
    url = new URL(verificationLink(template, '0123456789abcdef01234567', 't'));
  } catch {
    throw new Error('is not a URL template, like https://verify.example.com/verify/{programId}');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('must be an http(s) URL');
  if (!template.includes('{programId}')) throw new Error('must contain {programId}');
}

/**
 * The template with its placeholders replaced (URL-encoded). A tracking id the template has no place for is
 * added as the trackingId query parameter, so that it is never lost.
 */
export function verificationLink(template: string, programId: string, trackingId: string): string {
  const values = { programId, trackingId } as const;
  const link = template.replace(PLACEHOLDER, (_, name: keyof typeof values) =>
    encodeURIComponent(values[name]),
  );
  if (trackingId === '' || template.includes('{trackingId}')) return link;
  const url = new URL(link);
  url.searchParams.set('trackingId', trackingId);
  return url.toString();
}

export interface MessageContent {
  subject: string;
  text: string;
  /** Empty for an SMS. */
  html: string;
}

/** Text for HTML content and attribute values. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function emailContent(link: string): MessageContent {
  const subject = 'Verify your eligibility';
  const text = [
    'Hello,',
    '',
    'You were invited to verify your eligibility for an offer. Open this link to start:',
    '',
    link,
    '',
    'If you did not expect this message, you can ignore it.',
  ].join('\n');
  const href = escapeHtml(link);
  const html =
    '<!doctype html><html><body style="font-family:sans-serif">' +
    '<p>Hello,</p><p>You were invited to verify your eligibility for an offer.</p>' +
    `<p><a href="${href}">Start the verification</a></p>` +
    `<p style="color:#666">Or copy this link: ${href}</p>` +
    '<p style="color:#666">If you did not expect this message, you can ignore it.</p></body></html>';
  return { subject, text, html };
}

export function smsContent(link: string): MessageContent {
  return { subject: '', text: `Verify your eligibility for an offer: ${link}`, html: '' };
}
