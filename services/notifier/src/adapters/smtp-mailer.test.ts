import { smtpFailure } from './smtp-mailer';

describe('smtpFailure', () => {
  it('keeps the reply code only, and calls a 5xx permanent', () => {
    const err = Object.assign(new Error('550 5.1.1 <jane@example.com>: Recipient address rejected'), {
      responseCode: 550,
      code: 'EENVELOPE',
    });
    expect(smtpFailure(err)).toEqual({
      status: 'failed',
      error: 'SMTP server answered 550',
      permanent: true,
    });
  });

  it('retries a 4xx reply and a connection failure', () => {
    expect(smtpFailure(Object.assign(new Error('451 try later'), { responseCode: 451 }))).toEqual({
      status: 'failed',
      error: 'SMTP server answered 451',
      permanent: false,
    });
    expect(
      smtpFailure(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:25'), { code: 'ESOCKET' })),
    ).toEqual({
      status: 'failed',
      error: 'SMTP failed (ESOCKET)',
      permanent: false,
    });
  });
});
