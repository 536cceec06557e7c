import { reportsV1 } from '@eligo/proto';
import { reverifyStartedToJson, reverifyStatusToJson } from '../mapping/report';
import { checkBody } from './body-check';
import { ReverifyRequest, ReverifyStarted, ReverifyStatus } from './reverify';

/**
 * Bulk re-verification's body, checked by its definition's schema. The expected answers are the OpenAPI
 * validator's on the hand-written ReverifyRequest (validation/request-validator.ts), captured before it was
 * removed.
 */
const programId = 'ab'.repeat(12);
const ids = (n: number) => Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0'));

describe('the body check of ReverifyRequest', () => {
  it.each<[unknown, string | null]>([
    [{ programId: programId, verificationIds: ids(3) }, null],
    [{ programId: programId, verificationIds: [] }, 'body.verificationIds must NOT have fewer than 1 items'],
    [
      { programId: programId, verificationIds: ids(10001) },
      'body.verificationIds must NOT have more than 10000 items',
    ],
    [{ programId: 'nope', verificationIds: ids(1) }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [{ verificationIds: ids(1) }, 'body.programId is required'],
    [
      { programId: programId, verificationIds: ids(1), mode: 'LIVE' },
      'body has unexpected property mode (allowed: programId, verificationIds)',
    ],
    [{ programId: programId, verificationIds: [1] }, 'body.verificationIds[0] must be string'],
    [{ programId: programId, verificationIds: [' abababababababababababab '] }, null],
    [
      { programId: programId, verificationIds: ['x'] },
      'body.verificationIds[0] must be a verification id (24 lowercase hex characters)',
    ],
    [{ programId: programId, verificationIds: 'x' }, 'body.verificationIds must be array'],
    [[], 'body must be object'],
    [null, 'body must be object'],
  ])('%#: %j is answered as before', (body, expected) => {
    const checked = checkBody(ReverifyRequest, body);
    expect(checked.ok ? null : checked.problem).toBe(expected);
  });
});

describe('the answers', () => {
  const batch = reportsV1.ReverificationBatch.fromPartial({
    batchId: 'bb'.repeat(12),
    programId,
    status: reportsV1.BatchStatus.BATCH_STATUS_IN_PROGRESS,
    createdAt: new Date('2025-03-01T10:00:00.000Z'),
    totalRecords: 3,
    recordsProcessed: 2,
  });

  it('are what ReverifyStarted and ReverifyStatus state', () => {
    expect(checkBody(ReverifyStarted, reverifyStartedToJson(batch, 'https://eligo.test')).ok).toBe(true);
    expect(checkBody(ReverifyStatus, reverifyStatusToJson(batch)).ok).toBe(true);
  });
});
