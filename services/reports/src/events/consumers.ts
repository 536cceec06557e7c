import { documentsEventsV1, programsEventsV1, verificationEventsV1 } from '@eligo/proto';
import { eventHandler, eventType, topicFor, type EventContext, type ServiceConsumer } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { recordProgram } from '../repository/programs.repository';
import { projectionWrites, type ProjectionWrites } from './projection-writes';

const orNull = <T>(value: T | '' | 0 | undefined): T | null => (value ? value : null);

/**
 * The projection reports are read from, fed by one consumer group, by default from the start of each topic
 * (a new deployment builds it from the history Kafka keeps). Each event is applied once (the inbox) in the
 * transaction that records it; the projection's rows are written when that transaction's events were all
 * handled (projection-writes.ts).
 */
export function reportsConsumers(app: AppContext, fromBeginning: boolean): ServiceConsumer[] {
  const { schema } = app;
  const verification = (name: string) => eventType('verification', name);
  const add = async <K extends keyof ProjectionWrites>(
    c: EventContext,
    kind: K,
    facts: ProjectionWrites[K][number],
  ): Promise<void> => {
    (projectionWrites(c, schema)[kind] as ProjectionWrites[K][number][]).push(facts);
  };
  return [
    {
      name: 'projection',
      fromBeginning,
      topics: [topicFor('verification'), topicFor('documents'), topicFor('programs')],
      handlers: {
        [verification('VerificationCreated')]: eventHandler(
          verificationEventsV1.VerificationCreated,
          (e, c) =>
            add(c, 'created', {
              verificationId: e.verificationId,
              accountId: e.accountId,
              programId: e.programId,
              segment: e.segment,
              trackingId: orNull(e.trackingId),
              testMode: e.testMode,
              createdAt: e.occurredAt ?? new Date(c.event.time),
            }),
        ),
        [verification('VerificationStepChanged')]: eventHandler(
          verificationEventsV1.VerificationStepChanged,
          (e, c) =>
            add(c, 'steps', {
              verificationId: e.verificationId,
              accountId: e.accountId,
              programId: e.programId,
              currentStep: e.currentStep,
              errorIds: e.errorIds,
              testMode: e.testMode,
              subSegment: orNull(e.subSegment),
              organizationId: orNull(e.organizationId),
              organizationName: orNull(e.organizationName),
              verificationMethod: orNull(e.verificationMethod),
              occurredAt: e.occurredAt ?? new Date(c.event.time),
            }),
        ),
        [verification('VerificationMetadataChanged')]: eventHandler(
          verificationEventsV1.VerificationMetadataChanged,
          (e, c) =>
            add(c, 'metadataKeys', {
              verificationId: e.verificationId,
              accountId: e.accountId,
              programId: e.programId,
              keys: e.keys,
            }),
        ),
        [eventType('documents', 'DocumentsSubmitted')]: eventHandler(
          documentsEventsV1.DocumentsSubmitted,
          (e, c) =>
            add(c, 'documentsSubmitted', {
              verificationId: e.verificationId,
              programId: e.programId,
            }),
        ),
        [eventType('documents', 'ReviewCompleted')]: eventHandler(documentsEventsV1.ReviewCompleted, (e, c) =>
          add(c, 'reviews', {
            verificationId: e.verificationId,
            programId: e.programId,
            approved: e.approved,
            rejectionReasons: e.rejectionReasons,
          }),
        ),
        [eventType('programs', 'ProgramCreated')]: eventHandler(
          programsEventsV1.ProgramCreated,
          async (e, c) => {
            if (e.program) await recordProgram(c.trx, schema, e.program);
          },
        ),
        [eventType('programs', 'ProgramUpdated')]: eventHandler(
          programsEventsV1.ProgramUpdated,
          async (e, c) => {
            if (e.program) await recordProgram(c.trx, schema, e.program);
          },
        ),
      },
    },
  ];
}
