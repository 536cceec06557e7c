import { missingTopicError, type BusLog, type LoggedMessage } from './bus-log';
import type { BusMessage } from './event-bus';

/**
 * The bus log held in memory, for tests that construct the in-process bus without a database: topics as
 * arrays, positions in a map. Nothing survives the process.
 */
export function createMemoryBusLog(): BusLog {
  const topics = new Map<string, BusMessage[]>();
  const positions = new Map<string, number>();
  const slot = (groupId: string, topic: string): string => JSON.stringify([groupId, topic]);
  const messagesOf = (topic: string): BusMessage[] => {
    const log = topics.get(topic);
    if (!log) throw missingTopicError(topic);
    return log;
  };
  // Copies in and out: a caller reusing its buffers must not change what was published.
  const copy = (m: BusMessage): BusMessage => ({
    topic: m.topic,
    key: m.key,
    value: Buffer.from(m.value),
    headers: { ...m.headers },
  });

  return {
    pollIntervalMs: undefined,

    async ensureTopics(names) {
      for (const name of names) if (!topics.has(name)) topics.set(name, []);
    },

    async append(messages) {
      const logs = messages.map((m) => messagesOf(m.topic)); // all or nothing
      messages.forEach((m, i) => logs[i]!.push(copy(m)));
    },

    async join(groupId, names, fromBeginning) {
      const logs = names.map(messagesOf);
      return names.map((name, i) => {
        const key = slot(groupId, name);
        if (!positions.has(key)) positions.set(key, fromBeginning ? 0 : logs[i]!.length);
        return positions.get(key)!;
      });
    },

    release() {},

    async position(groupId, topic) {
      return positions.get(slot(groupId, topic)) ?? 0;
    },

    async read(topic, offset, limit): Promise<LoggedMessage[]> {
      return messagesOf(topic)
        .slice(offset, offset + limit)
        .map((m, i) => ({ ...copy(m), offset: offset + i }));
    },

    async commit(groupId, topic, next) {
      const key = slot(groupId, topic);
      positions.set(key, Math.max(next, positions.get(key) ?? 0));
    },

    watch() {},

    async close() {},
  };
}
