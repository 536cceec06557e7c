import { documentsEventsV1 } from '@eligo/proto';
import { eventHandler, eventType, topicFor, type ServiceConsumer } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { onDocumentsSubmitted, onReviewCompleted } from '../app/documents';

/**
 * The verification service's consumers, each effect exactly once through the inbox. The documents service's
 * submissions and review decisions move verifications on (app/documents.ts); the events are converted here,
 * so that the use cases take the service's own types.
 */
export function verificationConsumers(app: AppContext): ServiceConsumer[] {
  const documents = (name: string) => eventType('documents', name);
  return [
    {
      name: 'documents-reviews',
      topics: [topicFor('documents')],
      handlers: {
        [documents('DocumentsSubmitted')]: eventHandler(
          documentsEventsV1.DocumentsSubmitted,
          (e, { trx }) =>
            onDocumentsSubmitted(trx, app, { verificationId: e.verificationId, reviewId: e.reviewId }),
          // The usual case: this process's call recorded it already, so it passes without a transaction.
          (e) => !app.appliedSubmissions.wasApplied(e.verificationId, e.reviewId),
        ),
        [documents('ReviewCompleted')]: eventHandler(documentsEventsV1.ReviewCompleted, (e, { trx }) =>
          onReviewCompleted(trx, app, {
            verificationId: e.verificationId,
            reviewId: e.reviewId,
            approved: e.approved,
            rejectionReasons: e.rejectionReasons,
          }),
        ),
      },
    },
  ];
}
