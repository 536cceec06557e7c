// The test harness of the services (docs/architecture.md, "Tests"); re-exported by the package entry.
export {
  startServiceUnderTest,
  createTestDatabase,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';
export {
  startModules,
  MODULE_TEST_ENV,
  type ModulesUnderTest,
  type StartModulesOptions,
} from './start-modules';
export { modulesToStart, packageLookup, type ModuleLookup } from './module-lookup';
export { failure } from './grpc-failure';
export { rawBytes, rawStore, readStream } from './object-store';
export {
  createTestProgram,
  importOrganization,
  testSubject,
  verificationCalls,
  type OrganizationsClient,
  type Program,
  type ProgramsClient,
  type Subject,
  type VerificationClient,
  type VerificationResponse,
} from './fixtures';
export { recordTopic, waitFor, type TopicRecorder } from './topic-recorder';
export { statementsOf, transactionsOf, type SentStatement } from './statements';
export { decodeQuotedPrintable, startSmtpCapture, type CapturedMail, type SmtpCapture } from './smtp-capture';
