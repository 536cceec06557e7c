import { randomBytes } from 'node:crypto';
import { documentsEventsV1, verificationEventsV1 } from '@eligo/proto';
import { eventType, type EventContext, type Knex } from '@eligo/runtime';
import type { AppContext } from '../src/app/context';
import { reportsConsumers } from '../src/events/consumers';
import { startReports, type Harness } from './support';

/**
 * The projection's writes of one consumer transaction (a batch of events) are made before it commits, one
 * statement per kind of event and round instead of one per event, with the same rows as when each event is
 * applied in its own transaction: in event order per verification, out-of-order step changes ignored.
 */
const V = verificationEventsV1;
const D = documentsEventsV1;
type Event = [type: string, payload: unknown];

describe('the projection given a batch of events', () => {
  let h: Harness;
  let statements: string[];
  const schema = 'reports';
  const { handlers } = reportsConsumers({ schema } as AppContext, true)[0]!;

  beforeAll(async () => {
    h = await startReports();
    h.db.on('query', (q: { sql: string }) => {
      if (q.sql.includes('verification_rows')) statements.push(q.sql);
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const newId = () => randomBytes(12).toString('hex');
  const at = (second: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, second));
  const verification = (name: string) => eventType('verification', name);

  /** Applies events as the consumer does: handled in order in one transaction, its beforeCommit work last. */
  async function applyInOne(events: Event[]): Promise<void> {
    await h.db.transaction(async (trx: Knex.Transaction) => {
      const hooks: (() => Promise<void>)[] = [];
      for (const [type, payload] of events) {
        const context = {
          trx,
          event: { time: at(0).toISOString() },
          beforeCommit: (work: () => Promise<void>) => void hooks.push(work),
        } as unknown as EventContext;
        await handlers[type]!.handle(payload, context);
      }
      for (let work = hooks.shift(); work; work = hooks.shift()) await work();
    });
  }

  const created = (id: string, second: number): Event => [
    verification('VerificationCreated'),
    V.VerificationCreated.fromPartial({
      verificationId: id,
      programId: 'p1',
      accountId: 'a1',
      segment: 'age',
      trackingId: 'campaign-1',
      testMode: true,
      occurredAt: at(second),
    }),
  ];
  const step = (id: string, currentStep: string, second: number, more: object = {}): Event => [
    verification('VerificationStepChanged'),
    V.VerificationStepChanged.fromPartial({
      verificationId: id,
      programId: 'p1',
      accountId: 'a1',
      currentStep,
      testMode: true,
      occurredAt: at(second),
      ...more,
    }),
  ];
  const metadata = (id: string, keys: string[]): Event => [
    verification('VerificationMetadataChanged'),
    V.VerificationMetadataChanged.fromPartial({ verificationId: id, programId: 'p1', accountId: 'a1', keys }),
  ];
  const submitted = (id: string): Event => [
    eventType('documents', 'DocumentsSubmitted'),
    D.DocumentsSubmitted.fromPartial({ verificationId: id, programId: 'p1' }),
  ];
  const reviewed = (id: string, approved: boolean, rejectionReasons: string[] = []): Event => [
    eventType('documents', 'ReviewCompleted'),
    D.ReviewCompleted.fromPartial({ verificationId: id, programId: 'p1', approved, rejectionReasons }),
  ];

  const rowsOf = async (ids: string[]) => {
    const rows: Record<string, unknown>[] = await h.db('verification_rows').whereIn('verification_id', ids);
    const byId = new Map(rows.map(({ verification_id, ...rest }) => [verification_id, rest]));
    return ids.map((id) => byId.get(id));
  };

  it('writes the flows of many verifications with one statement per kind and round', async () => {
    const ids = Array.from({ length: 20 }, newId);
    statements = [];
    await applyInOne(
      ids.flatMap((id) => [created(id, 1), step(id, 'collectAgePersonalInfo', 1), step(id, 'success', 2)]),
    );
    // The created rows, the first step of each, then its second: 3 statements for 60 events.
    expect(statements).toHaveLength(3);
    const rows = await rowsOf(ids);
    expect(rows.every((r) => r?.current_step === 'success' && r.completed_at !== null)).toBe(true);
  });

  it('ends with the rows each event applied in its own transaction gives', async () => {
    const history = (a: string, b: string, c: string): Event[] => [
      submitted(c),
      step(a, 'success', 5, { organizationId: 7, organizationName: 'State U', subSegment: 'x' }),
      metadata(a, ['k1']),
      submitted(a),
      created(a, 1),
      created(b, 2),
      // Older than the step applied: ignored.
      step(a, 'collectStudentPersonalInfo', 3, { organizationId: 8 }),
      step(b, 'collectStudentPersonalInfo', 2, { organizationId: 9, verificationMethod: 'instant' }),
      reviewed(a, false, ['UNREADABLE']),
      metadata(a, ['k2', 'k3']),
      submitted(a),
      // Knows no organization: the one recorded stays.
      step(b, 'error', 4, { errorIds: ['noMatch'] }),
      reviewed(a, true),
      submitted(c),
    ];
    const batched = [newId(), newId(), newId()];
    const single = [newId(), newId(), newId()];
    await applyInOne(history(...(batched as [string, string, string])));
    for (const event of history(...(single as [string, string, string]))) await applyInOne([event]);

    const [a, b, c] = await rowsOf(batched);
    expect(await rowsOf(single)).toEqual([a, b, c]);
    expect(a).toMatchObject({
      current_step: 'success',
      organization_id: '7',
      sub_segment: 'x',
      metadata_keys: ['k2', 'k3'],
      doc_upload_count: 2,
      review_outcome: 'APPROVED',
      rejection_reasons: [],
      step_changed_at: at(5),
      created_at: at(1),
    });
    expect(b).toMatchObject({
      current_step: 'error',
      error_ids: ['noMatch'],
      organization_id: '9',
      verification_method: 'instant',
      completed_at: at(4),
    });
    expect(c).toMatchObject({ doc_upload_count: 2, created_at: null, account_id: null });
  });
});
