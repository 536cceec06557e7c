import { programsEventsV1 } from '@eligo/proto';
import { enqueueEvent, type Knex } from '@eligo/runtime';
import type { Program } from '../domain/program';
import type { Recipient } from '../domain/send-link';
import { programToProto } from '../grpc/program-mapping';

/**
 * The programs service's domain events (events.proto), written to the outbox in the caller's transaction so
 * that they commit with the change they announce. Keyed by the program id (the token id for TokenRevoked).
 * None carries a secret or PII: the program snapshot has neither, and a send-link request only its ids.
 */
const SERVICE = 'programs';

type Trx = Knex.Transaction;

async function enqueue(
  trx: Trx,
  schema: string,
  eventName: string,
  subject: string,
  payload: Uint8Array,
): Promise<void> {
  await enqueueEvent(trx, schema, { service: SERVICE, eventName, subject, payload });
}

export async function programCreated(trx: Trx, schema: string, program: Program): Promise<void> {
  const msg = { program: programToProto(program), occurredAt: new Date() };
  await enqueue(
    trx,
    schema,
    'ProgramCreated',
    program.id,
    programsEventsV1.ProgramCreated.encode(msg).finish(),
  );
}

export async function programUpdated(trx: Trx, schema: string, program: Program): Promise<void> {
  const msg = { program: programToProto(program), occurredAt: new Date() };
  await enqueue(
    trx,
    schema,
    'ProgramUpdated',
    program.id,
    programsEventsV1.ProgramUpdated.encode(msg).finish(),
  );
}

export async function webhookConfigured(trx: Trx, schema: string, program: Program): Promise<void> {
  const msg: programsEventsV1.WebhookConfigured = {
    programId: program.id,
    accountId: program.accountId,
    callbackUri: program.webhook?.callbackUri ?? '',
    occurredAt: new Date(),
  };
  const payload = programsEventsV1.WebhookConfigured.encode(msg).finish();
  await enqueue(trx, schema, 'WebhookConfigured', program.id, payload);
}

export async function webhookRemoved(trx: Trx, schema: string, program: Program): Promise<void> {
  const msg = { programId: program.id, accountId: program.accountId, occurredAt: new Date() };
  await enqueue(
    trx,
    schema,
    'WebhookRemoved',
    program.id,
    programsEventsV1.WebhookRemoved.encode(msg).finish(),
  );
}

const channels: Record<Recipient['channel'], programsEventsV1.SendLinkChannel> = {
  EMAIL: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_EMAIL,
  SMS: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_SMS,
};

export async function sendLinkRequested(
  trx: Trx,
  schema: string,
  request: { requestId: string; programId: string; accountId: string; channel: Recipient['channel'] },
): Promise<void> {
  const msg: programsEventsV1.SendLinkRequested = {
    requestId: request.requestId,
    programId: request.programId,
    accountId: request.accountId,
    channel: channels[request.channel],
    occurredAt: new Date(),
  };
  const payload = programsEventsV1.SendLinkRequested.encode(msg).finish();
  await enqueue(trx, schema, 'SendLinkRequested', request.programId, payload);
}

export async function tokenRevoked(
  trx: Trx,
  schema: string,
  token: { tokenId: string; accountId: string },
): Promise<void> {
  const msg = { tokenId: token.tokenId, accountId: token.accountId, occurredAt: new Date() };
  await enqueue(
    trx,
    schema,
    'TokenRevoked',
    token.tokenId,
    programsEventsV1.TokenRevoked.encode(msg).finish(),
  );
}
