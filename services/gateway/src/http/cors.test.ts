import { verificationVerificationV1 } from '@eligo/proto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { standIn } from '../../test/stand-in';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import type { ProgramsClient } from '../clients/programs.client';
import type { VerificationClient } from '../clients/verification.client';

// CORS of the public REST v2 endpoints: an origin the program lists in embedOrigins may call them from a
// browser; no other origin, and never the token endpoints.
const program = '0123456789abcdef01234567';
const verificationId = 'abcdefabcdefabcdefabcdef';
const shop = 'https://shop.example';
let app: TestRestApp;
let programLookups = 0;

beforeAll(async () => {
  app = await startTestRestApp({
    programs: standIn<ProgramsClient>('programs', {
      getProgram: async (req: { programId: string }) => {
        programLookups += 1;
        if (req.programId !== program) throw Object.assign(new Error('none'), { code: GrpcStatus.NOT_FOUND });
        return { program: { programId: program, embedOrigins: [shop] } };
      },
    }),
    verification: standIn<VerificationClient>('verification', {
      locateVerification: async () => ({
        verificationId,
        programId: program,
        accountId: 'x',
        testMode: true,
      }),
      startVerification: async () => ({
        verification: verificationVerificationV1.VerificationResponse.fromPartial({
          verificationId,
          currentStep: 'collectStudentPersonalInfo',
          segment: 'student',
          locale: 'en-US',
        }),
      }),
    }),
  });
});
afterAll(() => app.close());

const preflight = (path: string, origin: string, headers = 'content-type') =>
  fetch(`${app.origin}/rest/v2${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });

describe('preflight', () => {
  it('admits a listed origin to a step of a verification of the program', async () => {
    const res = await preflight(`/verification/${verificationId}/step/collectStudentPersonalInfo`, shop);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(shop);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'content-type, idempotency-key, x-request-id',
    );
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it.each([
    [
      'an origin the program does not list',
      `/verification/${verificationId}/step/collectStudentPersonalInfo`,
      'https://evil.example',
      'content-type',
    ],
    [
      'a header the public endpoints do not take',
      `/verification/${verificationId}/step/collectStudentPersonalInfo`,
      shop,
      'content-type, authorization',
    ],
    ['a token endpoint', `/verification/${verificationId}/details`, shop, 'content-type'],
    ['an unknown program', '/program/fedcba9876543210fedcba98/organization', shop, 'content-type'],
  ])('refuses %s', async (_what, path, origin, headers) => {
    const res = await preflight(path, origin, headers);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('admits any origin where the program is in the body: only the answer tells', async () => {
    const res = await preflight('/verification', 'https://elsewhere.example');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
  });
});

describe('answers', () => {
  it('shares the answer of a program path with a listed origin, not with another', async () => {
    const search = (origin: string) =>
      fetch(`${app.origin}/rest/v2/program/${program}/organization?name=State`, { headers: { origin } });
    // The search itself is not planned in this stand-in: its 500 still shows the headers.
    expect((await search(shop)).headers.get('access-control-allow-origin')).toBe(shop);
    expect((await search(shop)).headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect((await search('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it("shares the answer of a start, a refusal included, only when the body's program lists the origin", async () => {
    const start = (origin: string, programId: string) =>
      fetch(`${app.origin}/rest/v2/verification`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ programId }),
      });
    const listed = await start(shop, program);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(shop);
    expect(
      (await start('https://evil.example', program)).headers.get('access-control-allow-origin'),
    ).toBeNull();
    const malformed = await fetch(`${app.origin}/rest/v2/verification`, {
      method: 'POST',
      headers: { origin: shop, 'content-type': 'application/json' },
      body: JSON.stringify({ programId: program, bogus: 1 }),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('access-control-allow-origin')).toBe(shop);
  });

  it('asks programs once per program for a while (a preflight precedes many calls)', async () => {
    const before = programLookups;
    for (let i = 0; i < 5; i += 1)
      await preflight(`/verification/${verificationId}/step/collectStudentPersonalInfo`, shop);
    expect(programLookups - before).toBeLessThanOrEqual(1);
  });

  it('adds nothing without an Origin header', async () => {
    const res = await fetch(`${app.origin}/rest/v2/program/${program}/organization?name=State`);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
