import { verificationEventsV1 } from '@eligo/proto';
import * as events from '../src/events/publish';
import { listSteps, writeWithStepIf } from '../src/repository/steps.repository';
import {
  findVerificationVersion,
  updateVerification,
  updateVerificationIfQuery,
} from '../src/repository/verifications.repository';
import { flowCalls, importOrganization, jane, newProgram, startVerification, type Harness } from './support';

/**
 * A personal-info submission that makes one change is decided on the verification as read and written in one
 * statement on the pool, if the row is still that version (no BEGIN, locked read and COMMIT); when the row
 * changed meanwhile nothing of that statement is kept, and the submission runs in the locked transaction.
 */
const STEP = 'collectStudentPersonalInfo';

describe('unlocked submissions', () => {
  let h: Harness;
  const calls = flowCalls(() => h);
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const outboxOf = async (key: string): Promise<string[]> =>
    (await h.db('outbox').where({ key }).orderBy('id').select('event_type')).map(
      (r: { event_type: string }) => r.event_type.replace(/.*\./, ''),
    );

  async function started(): Promise<string> {
    const program = await newProgram(h.programs);
    await importOrganization(h, program.programId, 'Unlocked University');
    return (await calls.start(program.programId)).verificationId;
  }
  const student = () => jane({ organization: { id: 0, name: 'Unlocked University' } });

  it('writes a submission without taking the row lock a locked read would wait for', async () => {
    const verificationId = await started();
    // A key-share lock (what a foreign key check takes) lets an update of the row through, but not a
    // SELECT ... FOR UPDATE: the locked path would wait here until the lock is released.
    const holder = await h.db.transaction();
    try {
      await holder.raw('select id from verification.verifications where id = ? for key share', [
        verificationId,
      ]);
      const submitted = calls.submit(verificationId, STEP, student());
      const outcome = await Promise.race([
        submitted.then((answer) => answer.currentStep),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
      ]);
      expect(outcome).toBe('success');
    } finally {
      await holder.commit();
    }
    expect((await listSteps(h.db, verificationId)).map((s) => s.step)).toEqual([STEP, 'success']);
    expect(await outboxOf(verificationId)).toEqual([
      'VerificationCreated',
      'VerificationStepChanged',
      'VerificationStepChanged',
      'VerificationSucceeded',
    ]);
  });

  it('keeps nothing of a change written for a version the row no longer is', async () => {
    const verificationId = await started();
    const read = (await findVerificationVersion(h.db, verificationId))!;
    const write = (version: string) =>
      writeWithStepIf(
        h.db,
        'verification',
        updateVerificationIfQuery(h.db, verificationId, version, { currentStep: 'error' }),
        {
          verificationId,
          step: 'error',
          previousStep: STEP,
          trigger: 'test',
          errorIds: [],
          occurredAt: new Date(),
        },
        [
          events.stepChanged(
            verificationEventsV1.VerificationStepChanged.fromPartial({
              verificationId,
              currentStep: 'error',
            }),
          ),
        ],
      );
    // Another change commits between the read and the write.
    await updateVerification(h.db, verificationId, { instantMatchAttempts: 7 });
    expect(await write(read.version)).toBe(false);
    const after = (await findVerificationVersion(h.db, verificationId))!;
    expect([after.record.currentStep, after.record.instantMatchAttempts]).toEqual([STEP, 7]);
    expect((await listSteps(h.db, verificationId)).map((s) => s.step)).toEqual([STEP]);
    expect(await outboxOf(verificationId)).toEqual(['VerificationCreated', 'VerificationStepChanged']);

    // The version as it is now: written, with its step and event.
    expect(await write(after.version)).toBe(true);
    expect((await findVerificationVersion(h.db, verificationId))!.record.currentStep).toBe('error');
    expect((await listSteps(h.db, verificationId)).map((s) => s.step)).toEqual([STEP, 'error']);
    expect(await outboxOf(verificationId)).toEqual([
      'VerificationCreated',
      'VerificationStepChanged',
      'VerificationStepChanged',
    ]);
  });

  it('takes one of several submissions sent at once; the others answer what the verification then is', async () => {
    const verificationId = await started();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => calls.submit(verificationId, STEP, student(), `at-once-${i}`)),
    );
    const taken = answers.filter((a) => a.errorIds.length === 0);
    expect(taken).toHaveLength(1);
    expect(taken[0]!.currentStep).toBe('success');
    for (const other of answers.filter((a) => a !== taken[0]))
      expect([other.currentStep, other.errorIds]).toEqual(['success', ['invalidStep']]);
    expect((await listSteps(h.db, verificationId)).map((s) => s.step)).toEqual([STEP, 'success']);
    expect((await outboxOf(verificationId)).filter((t) => t === 'VerificationSucceeded')).toHaveLength(1);
  });
});
