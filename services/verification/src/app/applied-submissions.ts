/**
 * The documents submissions this process recorded through the documents service's call
 * (recordDocumentsSubmitted), by verification: the DocumentsSubmitted event that follows the call is then known
 * to change nothing, and the consumer lets it pass without a transaction, an inbox row or a read of the
 * verification (events/consumers.ts). Only committed changes are noted, so a hit is always true; a miss (another
 * replica took the call, the process restarted, the note was evicted) goes the usual way, which reads the row.
 * Bounded: the oldest note goes first, and an event normally follows its call within a fetch.
 */
export class AppliedSubmissions {
  private readonly reviews = new Map<string, string>();

  constructor(private readonly capacity = 4096) {}

  /** After the change committed: the verification waits for this review (or went past it). */
  noteApplied(verificationId: string, reviewId: string): void {
    // Deleted first, so that a newer note moves to the end of the eviction order.
    this.reviews.delete(verificationId);
    this.reviews.set(verificationId, reviewId);
    if (this.reviews.size > this.capacity) this.reviews.delete(this.reviews.keys().next().value!);
  }

  wasApplied(verificationId: string, reviewId: string): boolean {
    return this.reviews.get(verificationId) === reviewId;
  }
}
