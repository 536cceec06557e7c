import { organizationsApi } from './organizations-api';
import type { CallOptions, ProgramsApi, Reply } from './programs-api';

/** A student subject that succeeds at once in a test-mode program (any firstName but the triggers). */
export const janeDoe = {
  firstName: 'Jane',
  lastName: 'Doe',
  birthDate: '2000-01-31',
  email: 'jane.doe@example.com',
};

/**
 * Loads one university into the catalog (admin import) and returns it as a subject's organization, as the
 * given program's organization search finds it: student subjects name their school.
 */
export async function importUniversity(
  api: ProgramsApi,
  programId: string,
  name = 'Eligo Verification University',
): Promise<{ id: number; name: string }> {
  const orgs = organizationsApi(api);
  const reply = await orgs.importCsv([
    { externalId: `e2e-verification-${name}`, name, type: 'UNIVERSITY', country: 'US', domains: [] },
  ]);
  if (reply.status !== 200) throw new Error(`import: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: await orgs.idOf(programId, name), name };
}

/** The fields of a verification response that scenarios read without asserting them first. */
export interface StartedVerification {
  verificationId: string;
  currentStep: string;
  submissionUrl?: string;
}

/** The REST v2 verification flow, on top of the programs helpers (accounts, tokens, programs). */
export function verificationApi(api: ProgramsApi) {
  const start = (programId: string, trackingId?: string): Promise<Reply> =>
    api.v2('POST', '/verification', {
      body: { programId, ...(trackingId === undefined ? {} : { trackingId }) },
    });

  /** Starts a verification and asserts the 200 VR: what most scenarios begin with. */
  const started = async (programId: string, trackingId?: string): Promise<StartedVerification> => {
    const reply = await start(programId, trackingId);
    if (reply.status !== 200)
      throw new Error(`start: expected 200, got ${reply.status}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };

  /** POST /verification/{verificationId}/step/{step} with a JSON body (or a raw one through options). */
  const submit = (
    verificationId: string,
    step: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<Reply> => api.v2('POST', `/verification/${verificationId}/step/${step}`, { body, ...options });

  /** POST /verification/program/{programId}/step/collect<Type>PersonalInfo: start and submit in one call. */
  const submitToProgram = (
    programId: string,
    type: string,
    body: unknown,
    trackingId?: string,
  ): Promise<Reply> =>
    api.v2(
      'POST',
      `/verification/program/${programId}/step/collect${type}PersonalInfo${
        trackingId === undefined ? '' : `?trackingId=${encodeURIComponent(trackingId)}`
      }`,
      { body },
    );

  const get = (verificationId: string): Promise<Reply> => api.v2('GET', `/verification/${verificationId}`);

  const byTrackingId = (programId: string, trackingId: string): Promise<Reply> =>
    api.v2('GET', `/verification/program/${programId}/trackingId/${encodeURIComponent(trackingId)}`);

  const history = (programId: string, trackingId: string, token?: string): Promise<Reply> =>
    api.v2('GET', `/verification/program/${programId}/trackingId/${encodeURIComponent(trackingId)}/history`, {
      token,
    });

  const details = (verificationId: string, token?: string): Promise<Reply> =>
    api.v2('GET', `/verification/${verificationId}/details`, { token });

  const expire = (verificationId: string): Promise<Reply> =>
    api.v2('POST', `/verification/${verificationId}/expire`);

  return { start, started, submit, submitToProgram, get, byTrackingId, history, details, expire };
}

export type VerificationApi = ReturnType<typeof verificationApi>;
