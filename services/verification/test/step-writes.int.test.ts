import { NotWritten } from '@eligo/runtime';
import { statementsOf as moduleStatementsOf, transactionsOf } from '@eligo/local-infra';
import { verificationEventsV1 } from '@eligo/proto';
import * as events from '../src/events/publish';
import { listSteps, writeWithStep } from '../src/repository/steps.repository';
import {
  findVerification,
  findVerificationVersion,
  insertVerificationQuery,
  updateVerificationQuery,
} from '../src/repository/verifications.repository';
import {
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  startVerification,
  subject,
  type Harness,
  type Subject,
} from './support';

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

  it('writes a change to a record read with its version only while the row is that version', async () => {
    const program = await newProgram(h.programs);
    const { verificationId: id } = await flowCalls(() => h).start(program.programId);
    const read = (await findVerificationVersion(h.db, id))!;
    expect(read.version).toMatch(/^\d+$/);
    const entry = {
      verificationId: id,
      step: 'error',
      previousStep: read.currentStep,
      trigger: 'test',
      errorIds: [],
      occurredAt: new Date(),
    };
    const before = { steps: await listSteps(h.db, id), outbox: await outboxOf(id) };
    // Someone else changes the row after the read (its step stays): the change finds no row of that version.
    await h.db('verifications').where({ id }).update({ locale: 'fr' });
    await expect(
      writeWithStep(
        h.db,
        SCHEMA,
        updateVerificationQuery(h.db, id, { currentStep: 'error' }, read.version),
        entry,
        [stepChanged(id, 'error')],
      ),
    ).rejects.toThrow(NotWritten);
    expect((await findVerification(h.db, id))!.currentStep).toBe(read.currentStep);
    expect({ steps: await listSteps(h.db, id), outbox: await outboxOf(id) }).toEqual(before);

    // Read again, it is written with its step and event.
    const again = (await findVerificationVersion(h.db, id))!;
    await writeWithStep(
      h.db,
      SCHEMA,
      updateVerificationQuery(h.db, id, { currentStep: 'error' }, again.version),
      entry,
      [stepChanged(id, 'error')],
    );
    expect((await findVerification(h.db, id))!.currentStep).toBe('error');
    expect((await listSteps(h.db, id)).map((s) => s.step)).toEqual([
      ...before.steps.map((s) => s.step),
      'error',
    ]);
    expect(await outboxOf(id)).toEqual([...before.outbox, 'VerificationStepChanged']);
  });

  describe('a personal-info submission', () => {
    const calls = flowCalls(() => h);
    /** A new program's verification, and a subject the program's catalog admits (test mode: success). */
    const opened = async (overrides: Parameters<typeof newProgram>[1] = {}) => {
      const program = await newProgram(h.programs, overrides);
      const organization = {
        id: await importOrganization(h, program.programId, 'State University'),
        name: '',
      };
      const { verificationId } = await calls.start(program.programId);
      return { verificationId, subject: subject({ ...jane(), organization }) };
    };
    const isWrite = (sql: string) => sql.startsWith('with "change" as (update');

    /** The submission's transactions in the module: those that passed the verification's id. */
    const submitted = async (opened: { verificationId: string; subject: Subject }) => {
      let answer: Awaited<ReturnType<typeof calls.submit>> | undefined;
      const sent = await moduleStatementsOf('verification', async () => {
        answer = await calls.submit(opened.verificationId, 'collectStudentPersonalInfo', opened.subject);
      });
      const own = sent.filter((s) => s.values.includes(opened.verificationId));
      return {
        answer: answer!,
        transactions: transactionsOf(sent, opened.verificationId),
        unprepared: own.filter((s) => !s.prepared).map((s) => s.sql),
      };
    };

    it('decided on the row as read is one write, no transaction and no lock: two statements of the module', async () => {
      const verification = await opened();
      const { answer, transactions, unprepared } = await submitted(verification);
      expect(answer.currentStep).toBe('success');
      expect(transactions).toHaveLength(2);
      // Both prepared on their connection: parsed and planned once, not at every submission.
      expect(unprepared).toEqual([]);
      expect(transactions[0]).toEqual([expect.stringMatching(/xmin::text as version from "verifications"/)]);
      expect(transactions[1]).toHaveLength(1);
      expect(isWrite(transactions[1]![0]!)).toBe(true);
      expect((await listSteps(h.db, verification.verificationId)).map((s) => s.step)).toEqual([
        'collectStudentPersonalInfo',
        'success',
      ]);
      expect(await outboxOf(verification.verificationId)).toEqual([
        'VerificationCreated',
        'VerificationStepChanged',
        'VerificationStepChanged',
        'VerificationSucceeded',
      ]);
    });

    it('that needs the person limit is taken under the lock, its one write sent there only', async () => {
      const verification = await opened({ verificationLimit: { quantity: 1, days: 30 } });
      const { answer, transactions } = await submitted(verification);
      expect(answer.currentStep).toBe('success');
      expect(transactions).toHaveLength(2);
      // The read, then the transaction: the refused first try sent nothing.
      expect(transactions[0]).toEqual([expect.stringMatching(/as version from "verifications"/)]);
      const locked = transactions[1]!;
      expect([locked[0], locked.at(-1)]).toEqual(['BEGIN', 'COMMIT']);
      expect(locked[1]).toMatch(/from "verifications" where "id" = \$1 limit \$2 for update$/);
      expect(locked.filter(isWrite)).toHaveLength(1);
      expect((await listSteps(h.db, verification.verificationId)).map((s) => s.step)).toEqual([
        'collectStudentPersonalInfo',
        'success',
      ]);
    });
  });
});
