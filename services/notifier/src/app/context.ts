import {
  createFieldCipher,
  type FieldCipher,
  type Knex,
  type Logger,
  type Transaction,
} from '@eligo/runtime';
import type { ClaimedDelivery } from '../repository/dispatch.repository';
import type { NotifierMetrics } from './metrics';
import type { Mailer, ProgramsPort, VerificationPort, WebhookSender } from './ports';

/** The in-process dispatcher as the consumers see it (set by the module once it exists). */
export interface DeliveryQueue {
  /** Starts a pass at once: deliveries were committed. */
  wake(): void;
  /**
   * A lease for a delivery due now that this process attempts right after the commit, without claiming it
   * again; undefined when every attempt slot is taken (the delivery is then claimed by a pass, as usual).
   */
  reserve(): Date | undefined;
  /** Starts the attempt of a committed delivery recorded under a reserved lease. */
  handOff(delivery: ClaimedDelivery): void;
  /** Gives back a reserved lease that was not used (nothing recorded, or rolled back). */
  release(): void;
}

/** What every use case needs: the module's pool on its schema, the ports, the sender and mailer, time. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  programs: ProgramsPort;
  verification: VerificationPort;
  sender: WebhookSender;
  mailer: Mailer;
  /** Encrypts message recipients (personal data), bound to the message id. */
  recipients: FieldCipher;
  /** Encrypts the text and HTML of email-loop messages (they hold a one-time code), bound to the message id. */
  bodies: FieldCipher;
  metrics: NotifierMetrics;
  logger: Logger;
  webhook: {
    timeoutMs: number;
    retrySchedule: readonly number[];
    disableAfterMs: number;
    /** How long a dispatcher holds a delivery it attempts; a crashed one's lease expires after it. */
    leaseMs: number;
  };
  /** ELIGO_SEND_LINK_URL. */
  linkTemplate: string;
  deliveries: DeliveryQueue;
  /** Starts the mail sender's pass at once (set by the module). */
  wakeMessages(): void;
  now(): Date;
  random(): number;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  programs: ProgramsPort;
  verification: VerificationPort;
  sender: WebhookSender;
  mailer: Mailer;
  encryptionKey: Buffer;
  metrics: NotifierMetrics;
  logger: Logger;
  webhook: AppContext['webhook'];
  linkTemplate: string;
  now?: () => Date;
  random?: () => number;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    programs: options.programs,
    verification: options.verification,
    sender: options.sender,
    mailer: options.mailer,
    recipients: createFieldCipher(options.encryptionKey, 'notifier.message-recipient'),
    bodies: createFieldCipher(options.encryptionKey, 'notifier.message-body'),
    metrics: options.metrics,
    logger: options.logger,
    webhook: options.webhook,
    linkTemplate: options.linkTemplate,
    deliveries: {
      wake: () => undefined,
      reserve: () => undefined,
      handOff: () => undefined,
      release: () => undefined,
    },
    wakeMessages: () => undefined,
    now: options.now ?? (() => new Date()),
    random: options.random ?? Math.random,
  };
}

/**
 * Runs `committed` once the transaction committed (a wake-up must find the rows), or `rolledBack` if it did
 * not.
 */
export function afterCommit(trx: Transaction, committed: () => void, rolledBack = () => {}): void {
  trx.executionPromise.then(committed, rolledBack);
}
