import { emailLoopContent, emailLoopLink, minutesLeft } from './email-loop';

const programId = '0123456789abcdef01234567';
const verificationId = 'abcdefabcdefabcdefabcdef';
const now = new Date('2026-03-01T10:00:00.000Z');
const inMinutes = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

describe('emailLoopLink', () => {
  it('is the hosted page of the program with the verification in the query and the code in the fragment', () => {
    const link = emailLoopLink(
      'https://eligo.example.com/verify/{programId}',
      programId,
      verificationId,
      '042917',
    );
    expect(link).toBe(
      `https://eligo.example.com/verify/${programId}?verificationId=${verificationId}#emailToken=042917`,
    );
    const url = new URL(link);
    // The code is in the fragment only: a browser never sends it, so no server or log sees it.
    expect(url.search).not.toContain('042917');
    expect(url.pathname).not.toContain('042917');
    expect(url.hash).toBe('#emailToken=042917');
  });

  it("keeps the template's own query, leaves a tracking id placeholder empty, and encodes the code", () => {
    const link = emailLoopLink(
      'https://v.example.com/p/{programId}?brand=acme&t={trackingId}#top',
      programId,
      verificationId,
      '12 34&x',
    );
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe(`https://v.example.com/p/${programId}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ brand: 'acme', t: '', verificationId });
    expect(url.hash).toBe('#emailToken=12%2034%26x');
    expect(decodeURIComponent(url.hash.slice('#emailToken='.length))).toBe('12 34&x');
  });
});

describe('minutesLeft', () => {
  it('rounds to whole minutes, at least one', () => {
    expect(minutesLeft(inMinutes(15), now)).toBe(15);
    expect(minutesLeft(new Date(now.getTime() + 15 * 60_000 - 300), now)).toBe(15);
    expect(minutesLeft(inMinutes(0.2), now)).toBe(1);
    expect(minutesLeft(inMinutes(-3), now)).toBe(1);
    expect(minutesLeft(undefined, now)).toBeUndefined();
  });
});

describe('emailLoopContent', () => {
  const link = emailLoopLink(
    'https://eligo.example.com/verify/{programId}',
    programId,
    verificationId,
    '042917',
  );

  it('gives the code, how long it is valid and the link, in the text and in the HTML', () => {
    const mail = emailLoopContent({ code: '042917', link, expiresAt: inMinutes(15), now });
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text).toContain('    042917\n');
    expect(mail.text).toContain('within 15 minutes');
    expect(mail.text).toContain(link);
    // The code in large type, the link as a link.
    expect(mail.html).toMatch(/<p style="font-size:32px[^"]*">042917<\/p>/);
    expect(mail.html).toContain('within 15 minutes');
    expect(mail.html).toContain(`<a href="${link}">`);
  });

  it('says one minute in the singular, and nothing of a time without an expiry', () => {
    expect(emailLoopContent({ code: '1', link, expiresAt: inMinutes(1), now }).text).toContain(
      'within 1 minute.',
    );
    const mail = emailLoopContent({ code: '1', link, expiresAt: undefined, now });
    expect(mail.text).toContain('It can be used once. Enter it');
    expect(mail.text).not.toContain('minute');
  });

  it('escapes the code and the link in the HTML', () => {
    const odd = 'https://v.example.com/verify/x?a=1&b=<i>#emailToken=<b>"';
    const mail = emailLoopContent({ code: '<script>&"', link: odd, expiresAt: inMinutes(10), now });
    expect(mail.html).toContain('&lt;script&gt;&amp;&quot;');
    expect(mail.html).toContain(
      'href="https://v.example.com/verify/x?a=1&amp;b=&lt;i&gt;#emailToken=&lt;b&gt;&quot;"',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<i>');
    // The text is plain text: as given.
    expect(mail.text).toContain('<script>&"');
  });

  it('holds no personal data: only the code, the time and the link', () => {
    const mail = emailLoopContent({ code: '042917', link, expiresAt: inMinutes(15), now });
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/@|Jane|Doe/);
  });
});
