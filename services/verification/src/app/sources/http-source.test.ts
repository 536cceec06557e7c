import { NO_ALLOWED_CIDRS, parseAllowCidrs } from '@eligo/runtime';
import type { SourceInput } from '../../domain/instant-sources';
import { emptySubject } from '../../domain/subject';
import { httpSource } from './http-source';
import { startSourceServer, testSourceSecret, type SourceBehaviour } from '../../../test/source-server';

const secret = testSourceSecret();
const loopback = parseAllowCidrs('127.0.0.0/8');

const input: SourceInput = {
  subject: {
    ...emptySubject(),
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    birthDate: '1990-01-02',
    organization: { id: 42, name: 'Acme' },
    postalCode: '12345',
    metadata: { crm: 'x' },
    externalUserId: 'u-1',
  },
  program: { programId: 'a'.repeat(24), segment: 'employee', subSegment: '', mode: 'live' },
};

describe('the HTTP instant-match source against a real local server', () => {
  let behaviour: SourceBehaviour = { answer: true };
  let server: Awaited<ReturnType<typeof startSourceServer>>;
  beforeAll(async () => {
    server = await startSourceServer(secret, () => behaviour);
  });
  afterAll(() => server.close());

  const ask = (allow = loopback, signal = new AbortController().signal) =>
    httpSource({ url: server.url, secret }, { allowCidrs: allow }).check(input, signal);

  it('POSTs the minimal subject, signed per Standard Webhooks, and reads a signed yes', async () => {
    behaviour = { answer: true };
    await expect(ask()).resolves.toEqual({ kind: 'match' });
    const request = server.received.at(-1)!;
    expect(request.verified).toBe(true);
    expect(request.headers['webhook-id']).toMatch(/^im_[0-9a-f]{32}$/);
    // Only what the form took of names, email, birth date and organization: no address, metadata or ids.
    expect(JSON.parse(request.body)).toEqual({
      type: 'eligo.instantMatch',
      programId: 'a'.repeat(24),
      segment: 'employee',
      subSegment: '',
      subject: {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane@example.com',
        birthDate: '1990-01-02',
        organization: { id: 42, name: 'Acme' },
      },
    });
  });

  it('reads a signed no', async () => {
    behaviour = { answer: false };
    await expect(ask()).resolves.toEqual({ kind: 'noMatch' });
  });

  it.each([
    ['unsigned', 'none', 'the answer is not signed with the program secret'],
    ['signed with another secret', 'wrongSecret', 'the answer is not signed with the program secret'],
    ['signed for another request', 'otherId', 'the answer is not to this request (webhook-id)'],
  ] as const)('takes a yes %s as unavailable', async (_, sign, reason) => {
    behaviour = { answer: true, sign };
    await expect(ask()).resolves.toEqual({ kind: 'unavailable', reason });
  });

  it('takes an error status as unavailable', async () => {
    behaviour = { status: 500 };
    await expect(ask()).resolves.toEqual({ kind: 'unavailable', reason: 'answered 500' });
  });

  it('refuses a non-public address outside the allow-list without connecting', async () => {
    behaviour = { answer: true };
    const before = server.received.length;
    await expect(ask(NO_ALLOWED_CIDRS)).resolves.toEqual({
      kind: 'unavailable',
      reason: 'the source host is a blocked address (loopback)',
    });
    expect(server.received.length).toBe(before);
  });

  it('refuses a name that resolves to a blocked address', async () => {
    const source = httpSource(
      { url: server.url.replace('127.0.0.1', 'localhost'), secret },
      { allowCidrs: NO_ALLOWED_CIDRS },
    );
    const verdict = await source.check(input, new AbortController().signal);
    expect(verdict).toEqual({
      kind: 'unavailable',
      reason: expect.stringMatching(/^the source host resolves to a blocked address/),
    });
  });

  it('stops waiting for a hung server when its signal aborts', async () => {
    behaviour = { hang: true };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const t0 = Date.now();
    const verdict = await ask(loopback, controller.signal);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(verdict.kind).toBe('unavailable');
  });
});
