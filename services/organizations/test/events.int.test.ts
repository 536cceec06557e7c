import { randomBytes } from 'node:crypto';
import { organizationsEventsV1 } from '@eligo/proto';
import { parseCloudEventHeaders, type DeliveredMessage } from '@eligo/runtime';
import {
  importFixtures,
  newProgram,
  startOrganizations,
  subscribeOrganizationsTopic,
  waitFor,
  type Harness,
} from './support';

/**
 * The events as consumers see them: from Kafka (published by the outbox relay), with CloudEvents headers,
 * keyed by the aggregate, decodable with events.proto, and without the requester's PII.
 */
describe('organizations events on Kafka', () => {
  let h: Harness;
  let topic: Awaited<ReturnType<typeof subscribeOrganizationsTopic>>;
  beforeAll(async () => {
    h = await startOrganizations();
    topic = await subscribeOrganizationsTopic();
  });
  afterAll(async () => {
    await topic?.stop();
    await h?.stop();
  });

  const eventsFor = (key: string, count: number) => topic.keyed(key, count);
  const typeOf = (m: DeliveredMessage) => parseCloudEventHeaders(m.headers).type;
  /**
   * Organization ids restart at 1 in every test database while the topic is shared by all of them, so
   * catalog events are picked by key and by the external key they carry (made unique per run).
   */
  const catalogEventsFor = (id: number, externalKey: string, count: number) =>
    waitFor(`${count} catalog events of ${externalKey}`, () => {
      const found = topic.messages.filter(
        (m) =>
          m.key === String(id) &&
          // OrganizationAdded and OrganizationUpdated both carry external_key; decode by the type to read it.
          (typeOf(m).endsWith('.OrganizationAdded')
            ? organizationsEventsV1.OrganizationAdded.decode(m.value).externalKey
            : typeOf(m).endsWith('.OrganizationUpdated')
              ? organizationsEventsV1.OrganizationUpdated.decode(m.value).externalKey
              : '') === externalKey,
      );
      return found.length >= count ? found : undefined;
    });
  const runKey = `ev:${randomBytes(6).toString('hex')}`;

  it('publishes catalog changes keyed by organization id', async () => {
    const [org] = await importFixtures(h, [
      { name: 'Event University', externalKey: runKey, domains: ['ev.edu'] },
    ]);
    await h.client.unary('importOrganizations', {
      rows: [
        {
          line: 1,
          organization: {
            externalKey: runKey,
            name: 'Event University Renamed',
            type: 'UNIVERSITY',
            country: 'US',
            domains: ['ev.edu'],
            city: '',
            state: '',
            loginUrl: '',
          },
        },
      ],
    });
    const messages = await catalogEventsFor(org!.id, runKey, 2);
    expect(messages.map(typeOf)).toEqual([
      'eligo.organizations.v1.OrganizationAdded',
      'eligo.organizations.v1.OrganizationUpdated',
    ]);
    expect(organizationsEventsV1.OrganizationAdded.decode(messages[0]!.value)).toMatchObject({
      organizationId: org!.id,
      name: 'Event University',
      type: 'UNIVERSITY',
      country: 'US',
      externalKey: runKey,
    });
    expect(organizationsEventsV1.OrganizationUpdated.decode(messages[1]!.value)).toMatchObject({
      organizationId: org!.id,
      name: 'Event University Renamed',
    });
  });

  it('publishes the life of add-school requests with ids only, never the requester', async () => {
    const programId = await newProgram(h.programs);
    const person = {
      programId,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@navy.example.com',
      schoolName: 'Compiler College',
      schoolDomain: 'compiler.edu',
      schoolCountry: 'US',
      trackingId: '',
    };
    const { requestId: accepted } = await h.client.unary('requestAddSchool', person);
    const { requestId: declined } = await h.client.unary('requestAddSchool', person);
    const organization = {
      externalKey: '',
      name: '',
      type: 'POST_SECONDARY',
      country: '',
      domains: [],
      city: '',
      state: '',
      loginUrl: '',
    };
    const { organization: created } = await h.client.unary('acceptAddSchoolRequest', {
      requestId: accepted,
      organization,
    });
    await h.client.unary('declineAddSchoolRequest', { requestId: declined, reason: 'duplicate' });

    const acceptedEvents = await eventsFor(accepted, 2);
    expect(acceptedEvents.map(typeOf)).toEqual([
      'eligo.organizations.v1.AddSchoolRequested',
      'eligo.organizations.v1.AddSchoolRequestAccepted',
    ]);
    expect(organizationsEventsV1.AddSchoolRequested.decode(acceptedEvents[0]!.value)).toMatchObject({
      requestId: accepted,
      programId,
      schoolCountry: 'US',
    });
    expect(organizationsEventsV1.AddSchoolRequestAccepted.decode(acceptedEvents[1]!.value)).toMatchObject({
      requestId: accepted,
      programId,
      organizationId: created!.id,
    });
    const added = await catalogEventsFor(created!.id, `add-school:${accepted}`, 1);
    expect(added.map(typeOf)).toEqual(['eligo.organizations.v1.OrganizationAdded']);
    expect((await eventsFor(declined, 2)).map(typeOf)).toEqual([
      'eligo.organizations.v1.AddSchoolRequested',
      'eligo.organizations.v1.AddSchoolRequestDeclined',
    ]);

    for (const m of [...acceptedEvents, ...(await eventsFor(declined, 2))]) {
      const ce = parseCloudEventHeaders(m.headers);
      expect(ce.source).toBe('/eligo/organizations');
      expect(ce.subject).toBe(m.key);
      expect(m.headers['content-type']).toBe('application/protobuf');
      const bytes = m.value.toString('latin1').toLowerCase();
      for (const pii of ['grace', 'hopper', 'navy.example.com']) expect(bytes).not.toContain(pii);
    }
  });
});
