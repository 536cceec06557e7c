import { status } from '@grpc/grpc-js';
import { programsProgramV1 } from '@eligo/proto';
import { failure, newAccount, newProgram, programDraft, startPrograms, type Harness } from './support';

/**
 * A callback URL whose host is an IP address literal that is not public unicast (loopback, private,
 * link-local, ...) is refused when the webhook is configured, as the notifier would refuse it at every delivery,
 * unless ELIGO_WEBHOOK_ALLOW_CIDRS allows it. Host names are not resolved here (the notifier checks the
 * address it connects to).
 */
describe('webhook callback addresses', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    // TEST-NET-1 (reserved, so refused without the allow-list) stands for a private deployment's range.
    h = await startPrograms({ ELIGO_WEBHOOK_ALLOW_CIDRS: '192.0.2.0/24' });
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const hook = async (callbackUri: string) => {
    const { programId } = await newProgram(h.client, accountId);
    return h.client.unary('createWebhook', { programId, accountId, callbackUri, notifications: [] });
  };

  it.each([
    ['IPv4 loopback', 'http://127.0.0.1:8080/hook', 'loopback'],
    ['IPv4 loopback in another spelling', 'http://2130706433/hook', 'loopback'],
    ['IPv4 loopback in hex', 'http://0x7f.1/hook', 'loopback'],
    ['a private IPv4 address', 'https://10.1.2.3/hook', 'private'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['the unspecified address', 'http://0.0.0.0/hook', 'unspecified'],
    ['a CGNAT address', 'http://100.64.0.1/hook', 'carrierGradeNat'],
    ['IPv6 loopback', 'http://[::1]:8080/hook', 'loopback'],
    ['an IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hook', 'ipv4Mapped'],
    ['an IPv4-mapped IPv6 address in hex', 'http://[::ffff:7f00:1]/hook', 'ipv4Mapped'],
    ['an IPv4-compatible IPv6 address', 'http://[::127.0.0.1]/hook', 'ipv4Compatible'],
    ['a unique local IPv6 address', 'http://[fd00::1]/hook', 'uniqueLocal'],
    ['a link-local IPv6 address', 'http://[fe80::1]/hook', 'linkLocal'],
  ])('refuses %s with 400 invalidRequest naming callbackUri', async (_name, callbackUri, range) => {
    const err = await failure(hook(callbackUri));
    expect(err).toMatchObject({ code: status.INVALID_ARGUMENT, errorIds: ['invalidRequest'] });
    expect(err.message).toBe(`callbackUri: must not be a non-public IP address (${range})`);
  });

  it.each([
    ['a public IPv4 address', 'https://93.184.216.34/hook'],
    ['a public IPv6 address', 'https://[2606:2800:220:1:248:1893:25c8:1946]/hook'],
    ['an address of an allowed range', 'http://192.0.2.10:8080/hook'],
    ['a host name, even one that resolves to loopback (not resolved here)', 'http://localhost:8080/hook'],
  ])('accepts %s', async (_name, callbackUri) => {
    const { program } = await hook(callbackUri);
    expect(program!.webhook!.callbackUri).toBe(callbackUri);
  });

  it('refuses it in the webhook of CreateProgram and UpdateProgram too', async () => {
    const webhook = { callbackUri: 'http://127.0.0.1/hook', createdAt: undefined, notifications: [] };
    const created = await failure(
      h.client.unary('createProgram', { program: programDraft(accountId, { webhook }) }),
    );
    expect(created).toMatchObject({ code: status.INVALID_ARGUMENT, errorIds: ['invalidRequest'] });
    expect(created.message).toContain('webhook.callbackUri: must not be a non-public IP address (loopback)');

    const program = await newProgram(h.client, accountId);
    const updated = await failure(
      h.client.unary('updateProgram', {
        programId: program.programId,
        accountId,
        program: programsProgramV1.Program.create({ webhook }),
        updateMask: ['webhook'],
      }),
    );
    expect(updated).toMatchObject({ code: status.INVALID_ARGUMENT, errorIds: ['invalidRequest'] });
    expect(updated.message).toContain('webhook.callbackUri: must not be a non-public IP address (loopback)');
  });
});
