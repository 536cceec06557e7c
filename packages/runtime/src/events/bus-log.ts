import type { BusMessage } from './event-bus';

/** A message as the log keeps it: its topic's offsets start at 0 and have no gaps except pruned ones. */
export interface LoggedMessage extends BusMessage {
  offset: number;
}

/**
 * Where the in-process bus keeps its topics and its consumer groups' positions: in memory
 * (`createMemoryBusLog`, nothing survives the process) or in Postgres (`createPostgresBusLog`, the embedded
 * default, as durable as Kafka). The bus does the delivery (ownership, order, retries) on top of either.
 */
export interface BusLog {
  ensureTopics(names: string[]): Promise<void>;
  /** Appends all or none (like one produce request), in order; rejects when a topic does not exist. */
  append(messages: BusMessage[]): Promise<void>;
  /**
   * The group's committed position on each topic: the offset it gets next. A group without one starts at the
   * oldest retained message or at the end, and that start is recorded at once, so that what is published
   * right after the call is the group's. The topics count as consumed by this process until `release`.
   * Rejects when a topic does not exist.
   */
  join(groupId: string, topics: string[], fromBeginning: boolean): Promise<number[]>;
  /** Ends one `join` of these topics (retention may forget a group nobody joined for long). */
  release(groupId: string, topics: string[]): void;
  /** The group's committed position on the topic, as the member taking the topic over resumes from it. */
  position(groupId: string, topic: string): Promise<number>;
  /** Up to `limit` messages of the topic from `offset` on, in offset order. */
  read(topic: string, offset: number, limit: number): Promise<LoggedMessage[]>;
  /** Records that the group has handled everything before `next`; a position never moves back. */
  commit(groupId: string, topic: string, next: number): Promise<void>;
  /** Registers the wake-up for appends made by other processes (a log only this process sees has none). */
  watch(onAppend: () => void): void;
  /** How often readers look anyway, in case a wake-up from another process was missed; undefined: never. */
  readonly pollIntervalMs: number | undefined;
  close(): Promise<void>;
}

export function missingTopicError(topic: string): Error {
  // Mirrors a broker with auto-create off, so a missing ensureTopics fails in embedded mode too.
  return new Error(`topic ${topic} does not exist`);
}
