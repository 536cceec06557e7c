import { hrefOf, parseRoute, type Route } from './routes';

describe('parseRoute', () => {
  it.each<[string, string, Route]>([
    ['/console', '', { page: 'reviews' }],
    ['/console/', '', { page: 'reviews' }],
    [
      '/console/reviews',
      '?programId=0123456789abcdef01234567&segment=student',
      {
        page: 'reviews',
        programId: '0123456789abcdef01234567',
        segment: 'student',
      },
    ],
    [
      '/console/reviews/3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b',
      '',
      {
        page: 'review',
        reviewId: '3f2a4c1e-9b7d-4e2f-8a1b-0c9d8e7f6a5b',
      },
    ],
    ['/console/add-school', '', { page: 'addSchool' }],
    ['/console/verifications', '', { page: 'verifications' }],
    [
      '/console/verifications/0123456789abcdef01234567',
      '',
      {
        page: 'verification',
        verificationId: '0123456789abcdef01234567',
      },
    ],
    [
      '/console/programs',
      '?accountId=0123456789abcdef01234567',
      {
        page: 'programs',
        accountId: '0123456789abcdef01234567',
      },
    ],
    [
      '/console/programs/0123456789abcdef01234567',
      '',
      { page: 'program', programId: '0123456789abcdef01234567' },
    ],
    ['/console/accounts', '', { page: 'accounts' }],
    [
      '/console/accounts/5f3c5f3c5f3c5f3c5f3c5f3c',
      '',
      { page: 'account', accountId: '5f3c5f3c5f3c5f3c5f3c5f3c' },
    ],
    ['/console/audit', '', { page: 'audit' }],
    ['/console/staff', '', { page: 'staff' }],
  ])('%s%s is %j, and back', (path, search, route) => {
    expect(parseRoute(path, search)).toEqual(route);
    expect(parseRoute(...split(hrefOf(route)))).toEqual(route);
  });

  it.each([
    ['/console/reviews/not-a-review', ''],
    ['/console/verifications/ABC', ''],
    ['/console/programs/0123456789abcdef01234567/extra', ''],
    ['/console/unknown', ''],
    ['/console/staff/someone', ''],
  ])('%s is no page', (path, search) => {
    expect(parseRoute(path, search)).toEqual({ page: 'notFound' });
  });

  it('drops query filters that are not ids or segment names', () => {
    expect(parseRoute('/console/reviews', '?programId=x&segment=%3Cb%3E')).toEqual({ page: 'reviews' });
    expect(parseRoute('/console/programs', '?accountId=someone%40example.com')).toEqual({ page: 'programs' });
  });
});

function split(href: string): [string, string] {
  const at = href.indexOf('?');
  return at === -1 ? [href, ''] : [href.slice(0, at), href.slice(at)];
}
