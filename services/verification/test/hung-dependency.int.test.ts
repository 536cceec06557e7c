import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { definition as programsDefinition } from '@eligo/programs';
import { organizationsV1, programsV1, verificationV1 } from '@eligo/proto';
import { bindService, createClient, createLogger, GrpcHost, type GrpcServiceBinding } from '@eligo/runtime';
import { definition } from '../src';
import { failure, jane, newProgram, type ProgramsClient, type VerificationClient } from './support';

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
  const started: { sut: ServiceUnderTest; clients: { close(): void }[] }[] = [];

  beforeAll(async () => {
    host = new GrpcHost({ logger: createLogger({ level: 'silent' }), reflection: false });
    host.addService(hanging(programsV1.ProgramsServiceService));
    host.addService(hanging(organizationsV1.OrganizationsServiceService));
    address = `127.0.0.1:${await host.listen('127.0.0.1', 0)}`;
  });
  afterAll(async () => {
    for (const { sut, clients } of started) {
      for (const c of clients) c.close();
      await sut.stop();
    }
    host?.forceShutdown();
  });

  async function verificationWith(modules: { programs?: typeof definition }, env: Record<string, string>) {
    const sut = await startServiceUnderTest({
      modules: { ...modules, verification: definition },
      targets: modules.programs ? ['programs', 'verification'] : ['verification'],
      env: { ELIGO_VERIFICATION_DEPENDENCY_DEADLINE_MS: String(deadlineMs), ...env },
    });
    const options = { deadlineMs: 20_000, breaker: false } as const;
    const client: VerificationClient = createClient(
      verificationV1.VerificationServiceClient,
      sut.grpcAddress,
      options,
    );
    const programs: ProgramsClient = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
    started.push({ sut, clients: [client, programs] });
    return { client, programs };
  }

  const timed = async <T>(call: Promise<T>) => {
    const t0 = Date.now();
    const result = await call;
    return { result, ms: Date.now() - t0 };
  };

  it('answers 504 within the deadline when the programs service hangs', async () => {
    const { client } = await verificationWith(
      {},
      { ELIGO_PROGRAMS_GRPC_ADDRESS: address, ELIGO_ORGANIZATIONS_GRPC_ADDRESS: address },
    );
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
    const { client, programs } = await verificationWith(
      { programs: programsDefinition },
      { ELIGO_ORGANIZATIONS_GRPC_ADDRESS: address },
    );
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
