import { checkLinkTemplate, emailContent, smsContent, verificationLink } from './send-link';

const programId = '0123456789abcdef01234567';

describe('verificationLink', () => {
  it('fills in the program and an encoded tracking id', () => {
    expect(verificationLink('https://v.example.com/p/{programId}?t={trackingId}', programId, 'crm 7&x')).toBe(
      `https://v.example.com/p/${programId}?t=crm%207%26x`,
    );
  });

  it('adds the tracking id as a query parameter when the template has no place for it', () => {
    expect(verificationLink('https://v.example.com/verify/{programId}', programId, 'crm-7')).toBe(
      `https://v.example.com/verify/${programId}?trackingId=crm-7`,
    );
    expect(verificationLink('https://v.example.com/verify/{programId}', programId, '')).toBe(
      `https://v.example.com/verify/${programId}`,
    );
  });
});

describe('checkLinkTemplate', () => {
  it('accepts http(s) templates that name the program', () => {
    expect(() => checkLinkTemplate('http://localhost:8080/verify/{programId}')).not.toThrow();
  });

  it.each([
    ['not a url {programId}', 'is not a URL template'],
    ['ftp://x.example.com/{programId}', 'must be an http(s) URL'],
    ['https://x.example.com/verify', 'must contain {programId}'],
  ])('refuses %s', (template, message) => {
    expect(() => checkLinkTemplate(template)).toThrow(message);
  });
});

describe('message content', () => {
  it('puts the link in the text and, escaped, in the HTML of an e-mail', () => {
    const link = 'https://v.example.com/verify/x?a=1&trackingId=<b>';
    const mail = emailContent(link);
    expect(mail.subject).toBe('Verify your eligibility');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('href="https://v.example.com/verify/x?a=1&amp;trackingId=&lt;b&gt;"');
    expect(mail.html).not.toContain('<b>');
  });

  it('keeps an SMS to one line with the link', () => {
    expect(smsContent('https://v.example.com/l')).toEqual({
      subject: '',
      text: 'Verify your eligibility for an offer: https://v.example.com/l',
      html: '',
    });
  });
});
