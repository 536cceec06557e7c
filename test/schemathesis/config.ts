import type { Seeded } from './seed';

/** How much Schemathesis generates per operation: `npm test` fits CI time, `npm run fuzz` is the full run. */
export interface Profile {
  maxExamples: number;
  /** Steps of each scenario of the stateful phase (links between operations). */
  statefulMaxSteps: number;
}

export const profiles = {
  ci: { maxExamples: 50, statefulMaxSteps: 10 },
  full: { maxExamples: 1000, statefulMaxSteps: 50 },
} satisfies Record<string, Profile>;

const q = (value: string) => JSON.stringify(value);
const list = (values: (string | number)[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/**
 * The Web Fuzzing Commons auth file: account A first (most operations run as A), then the operator (the
 * admin API refuses A, and Schemathesis moves on to the next identity that an operation admits), then
 * account B, A's peer: object-level authorization replays A's reads of A's objects as B.
 */
export function wfcAuth(seeded: Seeded): object {
  const bearer = (token: string) => [{ name: 'Authorization', value: `Bearer ${token}` }];
  return {
    schemaVersion: '0.1.0',
    auth: [
      { name: 'accountA', fixedHeaders: bearer(seeded.a.token) },
      { name: 'operator', fixedHeaders: bearer(seeded.operatorToken) },
      { name: 'accountB', fixedHeaders: bearer(seeded.b.token) },
    ],
  };
}

/**
 * schemathesis.toml for one run: every check on, the identities of wfcAuth, and the seeded ids offered for
 * the parameters that name objects (mixed with generated values: a dictionary binding is used with its
 * probability, so malformed and unknown ids are still tried).
 */
export function schemathesisToml(seeded: Seeded, profile: Profile, authFile: string): string {
  const v = seeded.verifications;
  const operation = (path: string, parameters: Record<string, string>) =>
    [
      '[[operations]]',
      `include-path = ${q(path)}`,
      `parameters = { ${Object.entries(parameters)
        .map(([k, val]) => `${q(k)} = ${q(val)}`)
        .join(', ')} }`,
      '',
    ].join('\n');
  return [
    'workers = 2',
    'request-timeout = 20.0',
    'continue-on-failure = true',
    'suppress-health-check = ["too_slow", "filter_too_much"]',
    '',
    '[generation]',
    `max-examples = ${profile.maxExamples}`,
    '',
    '[checks]',
    'enabled = true',
    '',
    '[phases.stateful]',
    `max-steps = ${profile.statefulMaxSteps}`,
    '',
    '[auth.wfc]',
    `path = ${q(authFile)}`,
    'peers = ["accountA", "accountB"]',
    '',
    '[dictionaries.verifications]',
    `values = ${list([...v.collect, v.success, v.pending])}`,
    '[dictionaries.programs]',
    `values = ${list([seeded.a.programId])}`,
    '[dictionaries.accounts]',
    `values = ${list([seeded.a.accountId])}`,
    '[dictionaries.trackingIds]',
    `values = ${list([seeded.trackingId])}`,
    '[dictionaries.organizations]',
    `values = ${list([seeded.organizationId])}`,
    '',
    '[parameters]',
    '"path.verificationId" = { dictionary = "verifications", probability = 0.8 }',
    '"path.programId" = { dictionary = "programs", probability = 0.8 }',
    '"path.accountId" = { dictionary = "accounts", probability = 0.8 }',
    '"path.trackingId" = { dictionary = "trackingIds", probability = 0.5 }',
    '"path.organizationId" = { dictionary = "organizations", probability = 0.8 }',
    '"path.reportId" = ' + q(seeded.reportId),
    '"path.batchId" = ' + q(seeded.batchId),
    '"path.requestId" = ' + q(seeded.addSchoolRequestId),
    '"path.reviewId" = ' + q(seeded.reviewId),
    '"path.uploadToken" = ' + q(seeded.uploadToken),
    '"path.docUploadToken" = ' + q(v.docUploadToken),
    '"body.programId" = { dictionary = "programs", probability = 0.8 }',
    '"query.programId" = { dictionary = "programs", probability = 0.5 }',
    '',
    // The docUpload step's operations need a verification at docUpload.
    operation('/verification/{verificationId}/step/docUpload', { verificationId: v.docUpload }),
    operation('/verification/{verificationId}/step/docUpload/{docUploadToken}', {
      verificationId: v.docUpload,
    }),
    operation('/verification/{verificationId}/step/completeDocUpload', { verificationId: v.docUpload }),
    // Admin changes go to a program of their own, so that a PATCH (an end date in the past, live mode)
    // cannot take the program of the flows out of service for the rest of the run.
    operation('/programs/{programId}', { programId: seeded.adminProgramId }),
    operation('/programs/{programId}/rewardCodes', { programId: seeded.adminProgramId }),
    operation('/accounts/{accountId}/tokens/{tokenId}', { tokenId: seeded.disposableTokenId }),
  ].join('\n');
}
