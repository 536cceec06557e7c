/**
 * The verification response (VR) of the spec as this service builds it (app/response.ts), answers it
 * (grpc/mapping.ts converts it to the protobuf VerificationResponse) and keeps it: its JSON is the row's
 * last_response column.
 *
 * The stored format is a contract with rows already in databases. Rows were written as the JSON of the
 * protobuf message's TypeScript form (ts-proto, camelCase names, unset optional fields left out), so this type
 * keeps exactly those names and optional fields: the JSON of an answer is byte for byte what was stored
 * before, and old rows read back as answers without a migration. Renaming a field here needs a migration of
 * last_response (test/stored-response.int.test.ts pins the shape).
 */
export interface VerificationAnswer {
  /** 24 lowercase hex characters. */
  verificationId: string;
  currentStep: string;
  /** Empty when no error; on a collect step they are recoverable. */
  errorIds: string[];
  /** With current_step error: debugging text for integrators. '' when none. */
  systemErrorMessage: string;
  segment: string;
  /** Left out until a sub-segment is chosen. */
  subSegment?: string | undefined;
  /** With success only. */
  rewardCode?: string | undefined;
  /** When the verification expired and the program has a consolation code. */
  consolationRewardCode?: string | undefined;
  redirectUrl?: string | undefined;
  /** BCP 47: the verification's own, else the program's theme's, else en-US. */
  locale: string;
  availableStatuses: string[];
  /**
   * With emailLoop: whether a new code may be asked for now. Never stored (it changes with time): the gRPC
   * layer sets it on the way out (app/email-loop.ts withEmailLoop).
   */
  canResendEmailLoop?: boolean | undefined;
  rejectionReasons: string[];
  maxReviewTime: string;
  estimatedReviewTime: string;
  instantMatchAttempts: number;
  /** ISO 3166-1 alpha-2, '' when not known. */
  country: string;
  /** With docUpload: the upload attempt's token; '' otherwise. */
  docUploadToken: string;
}
