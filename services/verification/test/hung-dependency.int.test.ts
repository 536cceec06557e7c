import { startModules, type ModulesUnderTest } from '@eligo/local-infra';
import { organizationsV1, programsV1, verificationV1 } from '@eligo/proto';
import { bindService, createLogger, GrpcHost, type GrpcServiceBinding } from '@eligo/runtime';
import { definition } from '../src';
import { failure, jane, newProgram } from './support';

/** A service of the definition whose every call is accepted and never answered. */
function hanging(definition: Record<string, unknown>): GrpcServiceBinding {
  const never = () => new Promise<never>(() => undefined);
  const handlers = Object.fromEntries(Object.keys(definition).map((name) => [name, never]));
  return bindService(definition as never, handlers as never, createLogger({ level: 'silent' }));
}

/**
 * The spec gives a client 11 seconds for a submission. A dependency that takes calls and never answers must
 * cost at most the dependency deadline (ELIGO_VERIFICATION_DEPENDENCY_DEADLINE_MS), then a clear 504, and
 * leave nothing half-stored.
 */
describe('a hung dependency', () => {
  const deadlineMs = 1500;
  let host: GrpcHost;
  let address: string;
  const started: ModulesUnderTest[] = [];

  beforeAll(async () => {
    host = new GrpcHost({ logger: createLogger({ level: 'silent' }), reflection: false });
    host.addService(hanging(programsV1.ProgramsServiceService));
    host.addService(hanging(organizationsV1.OrganizationsServiceService));
    address = `127.0.0.1:${await host.listen('127.0.0.1', 0)}`;
  });
  afterAll(async () => {
    for (const sut of started) await sut.stop();
    host?.forceShutdown();
  });

  /** The verification module (and programs unless remote), its dependencies in `remote` at the hung host. */
  async function verificationWith(remote: ('programs' | 'organizations')[]) {
    const sut = await startModules('verification', {
      modules: { verification: definition },
      remote: Object.fromEntries(remote.map((name) => [name, address])),
      env: { ELIGO_VERIFICATION_DEPENDENCY_DEADLINE_MS: String(deadlineMs) },
    });
    started.push(sut);
    return {
      client: sut.client(verificationV1.VerificationServiceClient),
      programs: sut.client(programsV1.ProgramsServiceClient),
    };
  }

  const timed = async <T>(call: Promise<T>) => {
    const t0 = Date.now();
    const result = await call;
    return { result, ms: Date.now() - t0 };
  };

  it('answers 504 within the deadline when the programs service hangs', async () => {
    const { client } = await verificationWith(['programs', 'organizations']);
    for (let i = 0; i < 2; i++) {
      const { result, ms } = await timed(
        failure(
          client.unary('startVerification', {
            programId: 'a'.repeat(24),
            trackingId: '',
            requestId: '',
            metadata: {},
            locale: '',
          }),
        ),
      );
      // Its own error, not the dependency's: the gateway answers it 504 with a message naming no address.
      expect([result.codeName, result.kind]).toEqual(['DEADLINE_EXCEEDED', 'deadlineExceeded']);
      expect(ms).toBeLessThan(deadlineMs + 2000);
    }
  });

  it('answers a submission 504 within 11 s when the organizations service hangs, and stores nothing of it', async () => {
    const { client, programs } = await verificationWith(['organizations']);
    const program = await newProgram(programs);
    const { verification } = await client.unary('startVerification', {
      programId: program.programId,
      trackingId: '',
      requestId: '',
      metadata: {},
      locale: '',
    });
    const verificationId = verification!.verificationId;
    const { result, ms } = await timed(
      failure(
        client.unary('submitPersonalInfo', {
          verificationId,
          programId: '',
          trackingId: '',
          step: 'collectStudentPersonalInfo',
          input: { $case: 'subject', subject: jane({ organization: { id: 7, name: 'Hung University' } }) },
          requestId: '',
        }),
      ),
    );
    // Its own error, not the dependency's: the gateway answers it 504 with a message naming no address.
    expect([result.codeName, result.kind]).toEqual(['DEADLINE_EXCEEDED', 'deadlineExceeded']);
    expect(ms).toBeLessThan(11_000);
    const after = await client.unary('getVerification', { verificationId });
    expect([after.verification!.currentStep, after.verification!.errorIds]).toEqual([
      'collectStudentPersonalInfo',
      [],
    ]);
  });
});
