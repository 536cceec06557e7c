/** Parked events in the admin API (admin-parked-events.paths.ts). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const parkedEventSchemas = {
  ParkedEvent: {
    type: 'object',
    required: [
      'module',
      'id',
      'consumer',
      'ceId',
      'ceType',
      'topic',
      'partition',
      'offset',
      'error',
      'attempts',
      'parkedAt',
      'replayedAt',
      'headers',
      'payloadBytes',
    ],
    properties: {
      module: { type: 'string', description: 'The module whose consumer parked it' },
      id: { type: 'integer', minimum: 1, description: 'Its id within the module' },
      consumer: { type: 'string', description: 'The consumer, e.g. `projection`' },
      ceId: { type: 'string', format: 'uuid', description: 'CloudEvents id' },
      ceType: {
        type: 'string',
        description: 'CloudEvents type, e.g. `eligo.verification.v1.VerificationMetadataChanged`',
      },
      topic: { type: 'string' },
      partition: { type: 'integer', minimum: 0 },
      offset: { type: 'string', description: 'Kafka offset (decimal; 64-bit)' },
      error: {
        type: 'string',
        description: 'The last failure: error class, code and message (never payload data)',
      },
      attempts: { type: 'integer', minimum: 1, description: 'Failed attempts, replays included' },
      parkedAt: { type: 'string', format: 'date-time' },
      replayedAt: { type: ['string', 'null'], format: 'date-time', description: 'null while parked' },
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'The CloudEvents headers as delivered',
      },
      payloadBytes: {
        type: 'integer',
        minimum: 0,
        description: 'Size of the protobuf payload, kept in the database',
      },
    },
  },
  ParkedEventList: {
    type: 'object',
    required: ['events'],
    properties: { events: { type: 'array', items: ref('ParkedEvent') } },
  },
  ParkedEventReplay: {
    type: 'object',
    required: ['outcome', 'event'],
    properties: {
      outcome: { type: 'string', enum: ['applied', 'duplicate', 'ignored', 'invalid', 'failed'] },
      event: ref('ParkedEvent'),
    },
  },
};
