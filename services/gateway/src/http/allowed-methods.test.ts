import { allowedMethods } from './allowed-methods';

const document = {
  servers: [{ url: 'https://eligo.example.com/rest/v2' }],
  paths: {
    '/report/{reportId}': { get: {}, delete: {}, parameters: [] },
    '/report/fields': { get: {} },
    '/report/verification': { post: {} },
    '/verification/{verificationId}': { get: {} },
    '/verification/reverify': { post: {} },
    '/programs/{programId}': {
      servers: [{ url: 'https://eligo.example.com/rest/admin/v1' }],
      get: {},
      patch: {},
    },
    '/uploads/{uploadToken}': { servers: [{ url: 'https://eligo.example.com' }], put: {} },
  },
};

describe('allowedMethods: the methods of a resource, as the document declares them', () => {
  const table = allowedMethods(document, 'https://eligo.example.com');

  it('lists the declared methods, HEAD with GET, and OPTIONS', () => {
    expect(table.of('/rest/v2/report/abc')).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS']);
    expect(table.of('/rest/v2/report/verification')).toEqual(['OPTIONS', 'POST']);
    expect(table.of('/rest/admin/v1/programs/p1')).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH']);
    expect(table.of('/uploads/tok')).toEqual(['OPTIONS', 'PUT']);
  });

  it('takes the most literal template where several match (/report/fields is not /report/{reportId})', () => {
    expect(table.of('/rest/v2/report/fields')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(table.of('/rest/v2/verification/reverify')).toEqual(['OPTIONS', 'POST']);
  });

  it('names no resource for other paths, and takes a trailing slash', () => {
    expect(table.of('/rest/v2/report')).toBeUndefined();
    expect(table.of('/rest/v2/report/a/b')).toBeUndefined();
    expect(table.of('/programs/p1')).toBeUndefined();
    expect(table.of('/rest/v2/report/fields/')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('reads the servers relative to a public base URL with a path', () => {
    const behindProxy = allowedMethods(
      {
        servers: [{ url: 'https://example.com/eligo/rest/v2' }],
        paths: { '/report/fields': { get: {} } },
      },
      'https://example.com/eligo',
    );
    expect(behindProxy.of('/rest/v2/report/fields')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});
