import { programsProgramV1 } from '@eligo/proto';
import { programOf, programsPort } from './ports';

const { OfferType, ProgramMode, Program } = programsProgramV1;

describe('programOf', () => {
  it.each([
    [ProgramMode.PROGRAM_MODE_LIVE, 'live'],
    [ProgramMode.PROGRAM_MODE_TEST, 'test'],
    // Only an explicit live program takes live rewards: anything else is test mode, as before.
    [ProgramMode.PROGRAM_MODE_UNSPECIFIED, 'test'],
  ])('mode %s -> %s', (mode, expected) => {
    expect(programOf(Program.create({ mode })).mode).toBe(expected);
  });

  it.each([
    [OfferType.OFFER_TYPE_STATIC_CODE, 'staticCode'],
    [OfferType.OFFER_TYPE_REWARD_POOL, 'rewardPool'],
    [OfferType.OFFER_TYPE_NO_CODE, 'noCode'],
    [OfferType.OFFER_TYPE_UNSPECIFIED, 'noCode'],
  ])('offer type %s -> %s', (offerType, expected) => {
    expect(programOf(Program.create({ offerType })).offerType).toBe(expected);
  });

  it('keeps what the flow reads and leaves unset settings unset', () => {
    const start = new Date('2030-01-01T00:00:00Z');
    const program = programOf(
      Program.create({
        programId: 'p1',
        accountId: 'a1',
        segment: 'military',
        subSegments: ['veteran'],
        startDate: start,
        rewardCode: 'SAVE10',
        minAge: 18,
        documentReview: { maxRejections: 0, maxReviewTime: '2_MIN', estimatedReviewTime: 'A_FEW_MINUTES' },
        theme: { intl: { locale: 'fr-FR', messages: {}, errorId: {} }, customCss: '' },
        verificationLimit: { quantity: 1, days: 30 },
      }),
    );
    expect(program).toMatchObject({
      programId: 'p1',
      accountId: 'a1',
      segment: 'military',
      subSegments: ['veteran'],
      startDate: start,
      endDate: undefined,
      rewardCode: 'SAVE10',
      redirectUrl: undefined,
      minAge: 18,
      maxAge: undefined,
      documentReview: { maxRejections: 0, maxReviewTime: '2_MIN', estimatedReviewTime: 'A_FEW_MINUTES' },
      locale: 'fr-FR',
      verificationLimit: { quantity: 1, days: 30 },
    });
    expect(programOf(Program.create({})).documentReview).toBeUndefined();
    expect(programOf(Program.create({})).locale).toBe('');
  });

  it('takes the instant-match sources, and the HTTP source only with a secret that opens', () => {
    const { InstantSourceType } = programsProgramV1;
    const proto = Program.create({
      programId: 'p2',
      instantMatch: {
        sources: [
          { type: InstantSourceType.INSTANT_SOURCE_TYPE_LIST, subSegments: ['veteran'] },
          { type: InstantSourceType.INSTANT_SOURCE_TYPE_HTTP, subSegments: [] },
          { type: InstantSourceType.INSTANT_SOURCE_TYPE_UNSPECIFIED, subSegments: [] },
        ],
        http: { url: 'https://hr.example/check', secret: '', sealedSecret: Buffer.from('sealed') },
      },
    });
    const open = (sealed: Uint8Array, programId: string) => `${Buffer.from(sealed).toString()}:${programId}`;
    expect(programOf(proto, open)).toMatchObject({
      instantSources: [
        { type: 'list', subSegments: ['veteran'] },
        { type: 'http', subSegments: [] },
      ],
      httpSource: { url: 'https://hr.example/check', secret: 'sealed:p2' },
    });
    const refused = () => {
      throw new Error('another key');
    };
    expect(programOf(proto, refused).httpSource).toBeUndefined();
    expect(programOf(proto).httpSource).toBeUndefined();
    expect(programOf(Program.create({}))).toMatchObject({ instantSources: [], httpSource: undefined });
  });
});

describe('programsPort', () => {
  it('asks the programs service once for the requests that miss the cache at the same time', async () => {
    let calls = 0;
    const client = {
      unary: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { program: Program.create({ programId: 'p1', accountId: 'a1' }) };
      },
    } as unknown as Parameters<typeof programsPort>[0];
    const port = programsPort(client, 60_000);
    const read = await Promise.all(Array.from({ length: 8 }, () => port.getProgram('p1')));
    expect(read.map((p) => p?.programId)).toEqual(Array(8).fill('p1'));
    expect(calls).toBe(1);
    await port.getProgram('p1'); // cached
    expect(calls).toBe(1);
    // Without a cache, every read asks.
    const uncached = programsPort(client, 0);
    await Promise.all([uncached.getProgram('p1'), uncached.getProgram('p1')]);
    expect(calls).toBe(3);
  });
});
