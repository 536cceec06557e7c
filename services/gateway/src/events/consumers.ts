import { randomBytes } from 'node:crypto';
import { programsEventsV1 } from '@eligo/proto';
import {
  eventType,
  parseCloudEventHeaders,
  topicFor,
  type DeliveredMessage,
  type EventBus,
  type Logger,
  type Subscription,
} from '@eligo/runtime';

const programsTopic = topicFor('programs');
const tokenRevoked = eventType('programs', 'TokenRevoked');

export interface RevocationListenerOptions {
  bus: EventBus;
  logger: Logger;
  onRevoked: (tokenId: string) => void;
}

/**
 * Follows TokenRevoked so that a revocation reaches every gateway's auth cache within moments, not after
 * the TTL. Each gateway instance is its own consumer group (random id): every instance must see every event,
 * and only the ones published from now on, since its cache starts empty. No inbox: dropping a cache entry
 * twice is harmless, and there is no effect to make exactly-once.
 */
export async function listenForRevocations(options: RevocationListenerOptions): Promise<Subscription> {
  const { bus, logger, onRevoked } = options;
  // The programs service creates its topic when it starts; in a split deployment the gateway may come first.
  await bus.ensureTopics([programsTopic]);
  return bus.subscribe({
    groupId: `eligo.gateway.auth-cache.${randomBytes(8).toString('hex')}`,
    topics: [programsTopic],
    fromBeginning: false,
    handler: async (message) => {
      const tokenId = revokedTokenId(message, logger);
      if (!tokenId) return;
      onRevoked(tokenId);
      // A token id names a token without granting anything: safe to log, unlike the token itself.
      logger.debug({ tokenId }, 'revoked token dropped from the auth cache');
    },
  });
}

/** The token id of a TokenRevoked event; undefined for other events. Never throws: a bad message is skipped. */
function revokedTokenId(message: DeliveredMessage, logger: Logger): string | undefined {
  try {
    const { type } = parseCloudEventHeaders(message.headers);
    if (type !== tokenRevoked) return undefined;
    return programsEventsV1.TokenRevoked.decode(message.value).tokenId || undefined;
  } catch (err) {
    // Retrying could never succeed and would stall the partition; the cache TTL still bounds staleness.
    logger.warn(
      { err, topic: message.topic, partition: message.partition, offset: message.offset },
      'skipping an unreadable programs event',
    );
    return undefined;
  }
}
