import { MAX_TAGS } from '../src/domain/conversion';
import { newProgram, startReports, verify, type Harness, type Program } from './support';

/**
 * The tags a verification keeps over all its conversions are bounded: a client that sends new tags with every
 * conversion must not grow a projection row (and the report cell) without end. Conversions past the bound are
 * still recorded and counted; only the tags the verification does not have yet are dropped.
 */
/** The bound the OpenAPI document states (ConversionRequest.tags). */
const MAX_TAGS_PER_VERIFICATION = 100;

describe('conversion tags per verification', () => {
  let h: Harness;
  let offer: Program;

  beforeAll(async () => {
    h = await startReports();
    offer = await newProgram(h);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const record = (verificationId: string, tags: string[]) =>
    h.reports.unary('recordConversion', {
      target: { $case: 'verificationId', verificationId },
      amount: '1',
      currency: 'USD',
      tags,
      accountId: '',
    });
  const rowOf = async (verificationId: string) =>
    (await h
      .db('verification_rows')
      .where({ verification_id: verificationId })
      .first('conversion_count', 'conversion_totals', 'conversion_tags')) as {
      conversion_count: number;
      conversion_totals: Record<string, string>;
      conversion_tags: string[];
    };
  // Zero-padded, so that their sorted order is their numeric order.
  const tagsFrom = (first: number, count: number) =>
    Array.from({ length: count }, (_, i) => `t${String(first + i).padStart(3, '0')}`);

  it(`keeps at most ${MAX_TAGS_PER_VERIFICATION} distinct tags, and still counts every conversion`, async () => {
    const { verificationId } = await verify(h, offer);
    const batches = Math.ceil((MAX_TAGS_PER_VERIFICATION + MAX_TAGS) / MAX_TAGS);
    for (let b = 0; b < batches; b++) await record(verificationId, tagsFrom(b * MAX_TAGS, MAX_TAGS));
    const full = await rowOf(verificationId);
    expect(full.conversion_count).toBe(batches);
    // The first tags to arrive are kept; those arriving when the verification had as many are dropped.
    expect(full.conversion_tags).toEqual(tagsFrom(0, MAX_TAGS_PER_VERIFICATION));

    // A client sending tags it sent before, with a new one, is not refused: the conversion is counted.
    await record(verificationId, ['t000', 'zz-new']);
    const after = await rowOf(verificationId);
    expect(after.conversion_count).toBe(batches + 1);
    expect(after.conversion_totals).toEqual({ USD: String(batches + 1) + '.0000' });
    expect(after.conversion_tags).toEqual(full.conversion_tags);
  });

  it('fills the room left with the smallest of the new tags, when a conversion brings more', async () => {
    const { verificationId } = await verify(h, offer);
    const room = 5;
    const filled = MAX_TAGS_PER_VERIFICATION - room;
    for (let first = 0; first < filled; first += MAX_TAGS)
      await record(verificationId, tagsFrom(first, Math.min(MAX_TAGS, filled - first)));
    // More new tags than there is room for, sent in reverse: the smallest are the ones kept.
    await record(verificationId, tagsFrom(filled, MAX_TAGS).reverse());
    expect((await rowOf(verificationId)).conversion_tags).toEqual(tagsFrom(0, MAX_TAGS_PER_VERIFICATION));
    // Each conversion keeps the tags it was sent with.
    const last = await h
      .db('conversions')
      .where({ verification_id: verificationId })
      .orderBy('created_at', 'desc')
      .first('tags');
    expect([...last.tags].sort()).toEqual(tagsFrom(filled, MAX_TAGS));
  });
});
