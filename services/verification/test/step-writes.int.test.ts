import { verificationEventsV1 } from '@eligo/proto';
import * as events from '../src/events/publish';
import { listSteps, writeWithStep } from '../src/repository/steps.repository';
import {
  findVerification,
  insertVerificationQuery,
  updateVerificationQuery,
} from '../src/repository/verifications.repository';
import { flowCalls, newProgram, startVerification, type Harness } from './support';

/**
 * A verification's change, the step it records and the events announcing it are one statement (every step of
 * every flow writes all three, and each statement is a round trip; on the pool it needs no BEGIN and COMMIT),
 * and nothing of any of them is kept when the statement fails.
 */
const SCHEMA = 'verification';
const stepChanged = (verificationId: string, currentStep: string) =>
  events.stepChanged(
    verificationEventsV1.VerificationStepChanged.fromPartial({ verificationId, currentStep }),
  );
describe('step writes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** The statements `work` sends (the harness's own pool, as the service's is). */
  async function statementsOf(work: () => Promise<void>): Promise<string[]> {
    const sent: string[] = [];
    const record = (q: { sql: string }) => sent.push(q.sql);
    h.db.on('query', record);
    try {
      await work();
    } finally {
      h.db.off('query', record);
    }
    return sent;
  }

  const outboxOf = async (key: string): Promise<string[]> =>
    (await h.db('outbox').where({ key }).orderBy('id').select('event_type')).map(
      (r: { event_type: string }) => r.event_type.replace(/.*\./, ''),
    );

  it('inserts a verification with its first step and events, and updates it with the next, one statement each', async () => {
    const program = await newProgram(h.programs);
    const started = await flowCalls(() => h).start(program.programId);
    const existing = (await findVerification(h.db, started.verificationId))!;
    const id = started.verificationId.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const entry = (step: string, previousStep: string) => ({
      verificationId: id,
      step,
      previousStep,
      trigger: 'test',
      errorIds: ['invalidEmail'],
      occurredAt: new Date(),
    });

    const inserted = await statementsOf(() =>
      writeWithStep(
        h.db,
        SCHEMA,
        insertVerificationQuery(h.db, { ...existing, id, startRequestId: null }),
        entry('collectStudentPersonalInfo', ''),
        [
          events.created(verificationEventsV1.VerificationCreated.fromPartial({ verificationId: id })),
          stepChanged(id, 'collectStudentPersonalInfo'),
        ],
      ),
    );
    const updated = await statementsOf(() =>
      writeWithStep(
        h.db,
        SCHEMA,
        updateVerificationQuery(h.db, id, { currentStep: 'error', errorIds: ['invalidEmail'] }),
        entry('error', 'collectStudentPersonalInfo'),
        [stepChanged(id, 'error')],
      ),
    );

    expect([inserted.length, updated.length]).toEqual([1, 1]);
    expect(await outboxOf(id)).toEqual([
      'VerificationCreated',
      'VerificationStepChanged',
      'VerificationStepChanged',
    ]);
    expect((await findVerification(h.db, id))!.currentStep).toBe('error');
    expect((await listSteps(h.db, id)).map((s) => [s.previousStep, s.step, s.errorIds])).toEqual([
      ['', 'collectStudentPersonalInfo', ['invalidEmail']],
      ['collectStudentPersonalInfo', 'error', ['invalidEmail']],
    ]);
  });

  it('keeps neither the change nor the step when the statement fails', async () => {
    const program = await newProgram(h.programs);
    const started = await flowCalls(() => h).start(program.programId);
    const before = await listSteps(h.db, started.verificationId);
    const announced = await outboxOf(started.verificationId);
    // A step of a verification that does not exist breaks its foreign key: the update goes too.
    await expect(
      writeWithStep(
        h.db,
        SCHEMA,
        updateVerificationQuery(h.db, started.verificationId, { currentStep: 'error' }),
        {
          verificationId: 'ffffffffffffffffffffffff',
          step: 'error',
          previousStep: '',
          trigger: 'test',
          errorIds: [],
          occurredAt: new Date(),
        },
        [stepChanged(started.verificationId, 'error')],
      ),
    ).rejects.toThrow(/foreign key/);
    expect((await findVerification(h.db, started.verificationId))!.currentStep).toBe(
      'collectStudentPersonalInfo',
    );
    expect(await listSteps(h.db, started.verificationId)).toEqual(before);
    expect(await outboxOf(started.verificationId)).toEqual(announced);
  });
});
