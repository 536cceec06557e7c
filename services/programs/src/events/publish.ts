import { programsEventsV1 } from '@eligo/proto';
import { outboxWriter, type Knex } from '@eligo/runtime';
import type { Program } from '../domain/program';
import type { Recipient } from '../domain/send-link';
import { programToProto } from '../grpc/mapping';

/**
 * The programs service's domain events (events.proto), written to the outbox in the caller's transaction so
 * that they commit with the change they announce. Keyed by the program id (the token id for TokenRevoked).
 * None carries a secret or PII: the program snapshot has neither, and a send-link request only its ids.
 */
type Trx = Knex.Transaction;

/** The encode half of a generated message; its name is the event name (ce_type eligo.programs.v1.<Name>). */
const enqueue = outboxWriter<keyof typeof programsEventsV1>('programs');

const { ProgramCreated, ProgramUpdated, WebhookConfigured, WebhookRemoved, SendLinkRequested, TokenRevoked } =
  programsEventsV1;

export const programCreated = (trx: Trx, schema: string, program: Program) =>
  enqueue(trx, schema, 'ProgramCreated', ProgramCreated, program.id, {
    program: programToProto(program),
    occurredAt: new Date(),
  });

export const programUpdated = (trx: Trx, schema: string, program: Program) =>
  enqueue(trx, schema, 'ProgramUpdated', ProgramUpdated, program.id, {
    program: programToProto(program),
    occurredAt: new Date(),
  });

export const webhookConfigured = (trx: Trx, schema: string, program: Program) =>
  enqueue(trx, schema, 'WebhookConfigured', WebhookConfigured, program.id, {
    programId: program.id,
    accountId: program.accountId,
    callbackUri: program.webhook?.callbackUri ?? '',
    occurredAt: new Date(),
  });

export const webhookRemoved = (trx: Trx, schema: string, program: Program) =>
  enqueue(trx, schema, 'WebhookRemoved', WebhookRemoved, program.id, {
    programId: program.id,
    accountId: program.accountId,
    occurredAt: new Date(),
  });

const channels: Record<Recipient['channel'], programsEventsV1.SendLinkChannel> = {
  EMAIL: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_EMAIL,
  SMS: programsEventsV1.SendLinkChannel.SEND_LINK_CHANNEL_SMS,
};

export const sendLinkRequested = (
  trx: Trx,
  schema: string,
  request: { requestId: string; programId: string; accountId: string; channel: Recipient['channel'] },
) =>
  enqueue(trx, schema, 'SendLinkRequested', SendLinkRequested, request.programId, {
    requestId: request.requestId,
    programId: request.programId,
    accountId: request.accountId,
    channel: channels[request.channel],
    occurredAt: new Date(),
  });

export const tokenRevoked = (trx: Trx, schema: string, token: { tokenId: string; accountId: string }) =>
  enqueue(trx, schema, 'TokenRevoked', TokenRevoked, token.tokenId, {
    tokenId: token.tokenId,
    accountId: token.accountId,
    occurredAt: new Date(),
  });
