import { randomUUID } from 'node:crypto';
import { notFound } from '@eligo/runtime';
import { validateConversion, type ConversionInput } from '../domain/conversion';
import {
  addConversion,
  findOwner,
  findOwnerByTrackingId,
  type VerificationOwner,
} from '../repository/projection.repository';
import type { AppContext } from './context';
import { isId } from '../domain/ids';

export type ConversionTarget = { verificationId: string } | { accountId: string; trackingId: string };

const MAX_TRACKING_ID = 256;

/**
 * Records a conversion against a verification, found by its id or by the account's tracking id (the most
 * recent verification with it). The projection answers first; a verification it has not seen yet (its events
 * still on the way) is asked of the verification service. A caller that sent a token may only record against
 * its own account's verifications.
 */
export async function recordConversion(
  app: AppContext,
  input: ConversionInput & { target: ConversionTarget; callerAccountId: string },
): Promise<string> {
  const conversion = validateConversion(input);
  const owner = await ownerOf(app, input.target);
  if (!owner || (input.callerAccountId && owner.accountId !== input.callerAccountId))
    throw 'verificationId' in input.target
      ? notFound('Verification not found')
      : notFound('Account or tracking id not found');
  const id = randomUUID();
  await app.db.transaction(async (trx) => {
    await trx.withSchema(app.schema).table('conversions').insert({
      id,
      verification_id: owner.verificationId,
      account_id: owner.accountId,
      amount: conversion.amount,
      currency: conversion.currency,
      tags: conversion.tags,
    });
    await addConversion(trx, app.schema, { ...owner, ...conversion });
  });
  return id;
}

async function ownerOf(app: AppContext, target: ConversionTarget): Promise<VerificationOwner | undefined> {
  if ('verificationId' in target) {
    if (!isId(target.verificationId)) return undefined;
    return (
      (await findOwner(app.db, app.schema, target.verificationId)) ??
      (await app.verification.locate({ verificationId: target.verificationId }))
    );
  }
  const trackingId = target.trackingId.trim();
  if (!isId(target.accountId) || !trackingId || trackingId.length > MAX_TRACKING_ID) return undefined;
  return (
    (await findOwnerByTrackingId(app.db, app.schema, target.accountId, trackingId)) ??
    (await app.verification.locate({ accountId: target.accountId, trackingId }))
  );
}
