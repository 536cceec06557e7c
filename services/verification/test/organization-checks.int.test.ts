import { statementsOf } from '@eligo/local-infra';
import {
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  startVerification,
  subject,
  type Harness,
} from './support';

const CACHE_MS = 1500;

/**
 * The organization check of a submission (the organizations service's answer for the program): an accepted
 * organization is kept for ELIGO_VERIFICATION_PROGRAM_CACHE_MS, as the program is, so that the submissions
 * naming it do not each ask; a refusal is not kept. Counted as the organizations module's statements.
 */
describe('organization checks', () => {
  let h: Harness;
  const calls = flowCalls(() => h);
  beforeAll(async () => {
    h = await startVerification({ ELIGO_VERIFICATION_PROGRAM_CACHE_MS: String(CACHE_MS) });
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A submission of the program's new verification naming `organization`: its step, and whether it asked. */
  async function submit(programId: string, organization: { id: number; name: string }) {
    const { verificationId } = await calls.start(programId);
    let step = '';
    const sent = await statementsOf('organizations', async () => {
      step = (
        await calls.submit(verificationId, 'collectStudentPersonalInfo', subject({ ...jane(), organization }))
      ).currentStep;
    });
    return { step, asked: sent.some((s) => /from organizations where id = /.test(s.sql)) };
  }

  it('keeps an accepted organization for the cache time, per program', async () => {
    const program = await newProgram(h.programs);
    const other = await newProgram(h.programs);
    const id = await importOrganization(h, program.programId, 'Kept University');
    await importOrganization(h, other.programId, 'Kept University');
    const university = { id, name: '' };
    expect(await submit(program.programId, university)).toEqual({ step: 'success', asked: true });
    expect(await submit(program.programId, university)).toEqual({ step: 'success', asked: false });
    // Another program's check is its own.
    expect(await submit(other.programId, university)).toEqual({ step: 'success', asked: true });
    // Past the cache time, asked again.
    await new Promise((resolve) => setTimeout(resolve, CACHE_MS + 200));
    expect(await submit(program.programId, university)).toEqual({ step: 'success', asked: true });
  });

  it('does not keep a refusal: an organization added after one is accepted at once', async () => {
    const program = await newProgram(h.programs);
    const name = `Late College ${program.programId}`;
    expect((await submit(program.programId, { id: 0, name })).step).toBe('collectStudentPersonalInfo');
    await importOrganization(h, program.programId, name);
    expect((await submit(program.programId, { id: 0, name })).step).toBe('success');
  });
});
