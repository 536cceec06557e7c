import { notFound, type DomainError } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Ids are 24 lowercase hex characters; anything else cannot name a resource, so it is answered exactly like
 * an unknown one (e.g. 404 noProgram) without a call to the service.
 */
export function hexIdParam(param: string, notFound: () => DomainError): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const value = req.params[param];
    next(typeof value === 'string' && isId(value) ? undefined : notFound());
  };
}

/** The answers the programs service gives for unknown ids (ER noProgram; SEM for accounts). */
export const programNotFound = (): DomainError => notFound('Program not found', { errorIds: ['noProgram'] });
export const accountNotFound = (): DomainError => notFound('Account not found');
export const tokenNotFound = (): DomainError => notFound('Access token not found');

/** Organization ids are positive integers (int64 in the catalog, within JSON's safe integers). */
export function integerIdParam(param: string, notFound: () => DomainError): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const value = req.params[param];
    const ok =
      typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) && Number.isSafeInteger(Number(value));
    next(ok ? undefined : notFound());
  };
}

/** The spec answers the program organization search's unknown program with SEM, unlike the other routes. */
export const programNotFoundSem = (): DomainError => notFound('Program not found');
export const organizationNotFound = (): DomainError =>
  notFound('Organization not found', { errorIds: ['noOrganization'] });
export const addSchoolRequestNotFound = (): DomainError => notFound('Add-school request not found');

/** The verification service's answer for an unknown verification (ER noVerification). */
export const verificationNotFound = (): DomainError =>
  notFound('Verification not found', { errorIds: ['noVerification'] });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Ids the documents service gives (review ids) are UUIDs; anything else is answered like an unknown one. */
export function uuidParam(param: string, notFound: () => DomainError): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const value = req.params[param];
    next(typeof value === 'string' && UUID.test(value) ? undefined : notFound());
  };
}

export const reviewNotFound = (): DomainError => notFound('Review not found');

/** The reports service's answers for an unknown (or another account's) report or re-verification batch. */
export const reportNotFound = (): DomainError => notFound('Report not found');
export const batchNotFound = (): DomainError => notFound('Re-verification batch not found');
