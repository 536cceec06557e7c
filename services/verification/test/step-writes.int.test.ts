import { listSteps, writeWithStep } from '../src/repository/steps.repository';
import {
  findVerification,
  insertVerificationQuery,
  updateVerificationQuery,
} from '../src/repository/verifications.repository';
import { flowCalls, newProgram, startVerification, type Harness } from './support';

/**
 * A verification's change and the step it records are one statement (every step of every flow writes both,
 * and each statement is a round trip), and nothing of either is kept when the statement fails.
 */
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

  it('inserts a verification with its first step, and updates it with the next, one statement each', async () => {
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
        insertVerificationQuery(h.db, { ...existing, id, startRequestId: null }),
        entry('collectStudentPersonalInfo', ''),
      ),
    );
    const updated = await statementsOf(() =>
      writeWithStep(
        h.db,
        updateVerificationQuery(h.db, id, { currentStep: 'error', errorIds: ['invalidEmail'] }),
        entry('error', 'collectStudentPersonalInfo'),
      ),
    );

    expect([inserted.length, updated.length]).toEqual([1, 1]);
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
    // A step of a verification that does not exist breaks its foreign key: the update goes too.
    await expect(
      writeWithStep(h.db, updateVerificationQuery(h.db, started.verificationId, { currentStep: 'error' }), {
        verificationId: 'ffffffffffffffffffffffff',
        step: 'error',
        previousStep: '',
        trigger: 'test',
        errorIds: [],
        occurredAt: new Date(),
      }),
    ).rejects.toThrow(/foreign key/);
    expect((await findVerification(h.db, started.verificationId))!.currentStep).toBe(
      'collectStudentPersonalInfo',
    );
    expect(await listSteps(h.db, started.verificationId)).toEqual(before);
  });
});
