import { readBootstrap, roleMay } from './bootstrap';

const documentWith = (text: string | undefined) =>
  ({
    getElementById: (id: string) =>
      id === 'eligo-console-bootstrap' && text !== undefined ? { textContent: text } : null,
  }) as unknown as Document;

describe('readBootstrap', () => {
  it("reads the gateway's data block", () => {
    const data = {
      roles: { adminListReviews: ['reviewer', 'support', 'admin'] },
      signIn: { organization: { label: 'Sign in with Example', url: '/console/oidc/start' } },
    };
    expect(readBootstrap(documentWith(JSON.stringify(data)))).toEqual(data);
  });

  it('falls back to no roles and the password alone when the block is missing or broken', () => {
    const empty = { roles: {}, signIn: { organization: null } };
    expect(readBootstrap(documentWith(undefined))).toEqual(empty);
    expect(readBootstrap(documentWith('{not json'))).toEqual(empty);
    expect(readBootstrap(documentWith('{}'))).toEqual(empty);
  });
});

describe('roleMay', () => {
  const roles = { adminListReviews: ['reviewer', 'support', 'admin'], adminListStaff: ['admin'] };

  it("follows the gateway's table", () => {
    expect(roleMay(roles, 'reviewer', 'adminListReviews')).toBe(true);
    expect(roleMay(roles, 'support', 'adminListStaff')).toBe(false);
    expect(roleMay(roles, 'admin', 'adminListStaff')).toBe(true);
  });

  it('leaves an operation the table does not name to admin, as the staff guard does', () => {
    expect(roleMay(roles, 'support', 'adminSomethingNew')).toBe(false);
    expect(roleMay(roles, 'admin', 'adminSomethingNew')).toBe(true);
    expect(roleMay(roles, 'reviewer', 'constructor')).toBe(false);
  });
});
