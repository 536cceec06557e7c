import { cursorPagingRows, readQuery, tokenPagingRows } from '../../test/query-reader';
import { listMessages, listWebhookDeliveries } from './admin-notifier';
import { listParkedEvents } from './admin-parked-events';
import { listPiiAccess } from './admin-pii-access';
import type { EndpointDefinition } from './define';

// What the hand-written readers of the admin lists (validation/query-params.ts, routes/plain-query.ts and
// the parked events' consumer check) answered for each query, captured before the lists' parameters became
// their definitions' (strictQuery): the definitions must answer the same.

describe.each<[string, EndpointDefinition, [Record<string, unknown>, unknown][]]>([
  [
    'GET /programs/{programId}/webhook/deliveries',
    listWebhookDeliveries,
    [
      ...cursorPagingRows('limit, cursor, verificationId'),
      // The filter came with the staff console (issue 21): a verification's deliveries.
      [{ verificationId: 'abababababababababababab' }, { verificationId: 'abababababababababababab' }],
      [{ verificationId: 'x' }, 'query.verificationId must be 24 lowercase hex characters'],
      [{ verificationId: '' }, 'query.verificationId must not be empty (leave it out instead)'],
    ],
  ],
  [
    'GET /messages',
    listMessages,
    [
      ...cursorPagingRows('limit, cursor, requestId, verificationId'),
      [{ requestId: 'abababababababababababab' }, { requestId: 'abababababababababababab' }],
      [{ requestId: 'x' }, 'query.requestId must be 24 lowercase hex characters'],
      // The filter came with email-loop messages (issue 22): a verification's codes.
      [{ verificationId: 'abababababababababababab' }, { verificationId: 'abababababababababababab' }],
      [{ verificationId: 'x' }, 'query.verificationId must be 24 lowercase hex characters'],
      [{ verificationId: '' }, 'query.verificationId must not be empty (leave it out instead)'],
      [
        { limit: '5', cursor: 'c', requestId: 'abababababababababababab' },
        { limit: 5, cursor: 'c', requestId: 'abababababababababababab' },
      ],
    ],
  ],
  [
    'GET /parked-events',
    listParkedEvents,
    [
      [{}, {}],
      [
        { stauts: 'x' },
        'query has unexpected parameter stauts (allowed: module, consumer, status, limit, beforeId)',
      ],
      [{ limit: '' }, 'query.limit must not be empty (leave it out instead)'],
      [{ limit: '0' }, 'query.limit must be an integer from 1 to 500'],
      [{ limit: '1' }, { limit: 1 }],
      [{ limit: '100' }, { limit: 100 }],
      [{ limit: '101' }, { limit: 101 }],
      [{ limit: '500' }, { limit: 500 }],
      [{ limit: '501' }, 'query.limit must be an integer from 1 to 500'],
      [{ limit: 'x' }, 'query.limit must be an integer from 1 to 500'],
      [{ limit: '1e1' }, 'query.limit must be an integer from 1 to 500'],
      [{ limit: ['1', '2'] }, 'query.limit must be given once, as a plain value'],
      [{ status: 'PENDING' }, 'query.status must be one of parked, all'],
      [{ status: 'pending' }, 'query.status must be one of parked, all'],
      [{ status: 'parked' }, { status: 'parked' }],
      [{ status: 'all' }, { status: 'all' }],
      [{ status: 'open' }, 'query.status must be one of parked, all'],
      [{ status: ['pending', 'approved'] }, 'query.status must be given once, as a plain value'],
      [{ module: 'reports' }, { module: 'reports' }],
      [{ module: 'documents' }, 'query.module must be one of verification, reports, notifier'],
      [{ consumer: 'projection' }, { consumer: 'projection' }],
      [
        { consumer: 'Projection' },
        'query.consumer must be a consumer name: lowercase letters, digits and hyphens',
      ],
      [{ consumer: 'a'.repeat(64) }, { consumer: 'a'.repeat(64) }],
      [{ consumer: 'a'.repeat(65) }, 'query.consumer must be at most 64 characters'],
      [{ consumer: 'a\u0000' }, 'query.consumer must not contain control characters'],
      [
        { consumer: ' projection' },
        'query.consumer must be a consumer name: lowercase letters, digits and hyphens',
      ],
      [{ beforeId: '1' }, { beforeId: 1 }],
      [{ beforeId: '999999999' }, { beforeId: 999999999 }],
      [{ beforeId: '1000000000' }, 'query.beforeId must be an integer from 1 to 999999999'],
      [{ beforeId: '0' }, 'query.beforeId must be an integer from 1 to 999999999'],
      [
        { module: 'notifier', consumer: 'send-link', status: 'all', limit: '10', beforeId: '5' },
        { module: 'notifier', consumer: 'send-link', status: 'all', limit: 10, beforeId: 5 },
      ],
      // Two bad values: the parameters are read in the order the document lists them (limit was read
      // first before); which one the refusal names is the only difference.
      [{ status: 'x', limit: 'x' }, 'query.status must be one of parked, all'],
      // Two bad values, as above.
      [
        { consumer: 'BAD', limit: '0' },
        'query.consumer must be a consumer name: lowercase letters, digits and hyphens',
      ],
      [{ module: 'x', consumer: 'BAD' }, 'query.module must be one of verification, reports, notifier'],
    ],
  ],
  [
    'GET /pii-access',
    listPiiAccess,
    [
      ...tokenPagingRows('accountId, pageSize, pageToken'),
      [{ accountId: 'abababababababababababab' }, { accountId: 'abababababababababababab' }],
      [{ accountId: 'bababababababababababab' }, 'query.accountId must be 24 lowercase hex characters'],
      [
        { accountId: 'abababababababababababab', pageSize: '5', pageToken: 'p' },
        { accountId: 'abababababababababababab', pageSize: 5, pageToken: 'p' },
      ],
    ],
  ],
])('%s', (_operation, definition, rows) => {
  it.each(rows)('reads %j as the hand-written readers did', (query, expected) => {
    expect(readQuery(definition, query)).toEqual(expected);
  });
});
