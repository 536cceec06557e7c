import { notFound } from '@eligo/runtime';
import type { VerificationAnswer } from '../domain/answer';
import { isVerificationId } from '../domain/ids';
import { findVerification } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { noVerification, takeStep } from './load';
import { succeed } from './person-limit';
import { applyChange } from './transition';

/**
 * Single sign-on with the organization (issue 22): a verification at step sso sends the browser to the
 * organization's OpenID provider; the organizations service runs the OpenID client (discovery, PKCE, state and
 * nonce bound to the verification, the ID token's checks, the organization's rule) and tells the outcome,
 * which moves the verification on. An organization without OpenID settings keeps its catalog login page.
 */

/**
 * GET step/sso: where the browser signs in (with the sign-on's state when it is an OpenID sign-on); 404 when
 * the verification is not at sso or its organization has nowhere to sign in.
 */
export async function ssoLoginUrl(
  ctx: AppContext,
  verificationId: string,
  redirectUri: string,
): Promise<{ loginUrl: string; state: string }> {
  const record = isVerificationId(verificationId)
    ? await findVerification(ctx.db, verificationId)
    : undefined;
  if (!record) throw noVerification(verificationId);
  const organizationId = record.currentStep === 'sso' ? record.organizationId : null;
  const started =
    organizationId && redirectUri
      ? await ctx.organizations.startSso(organizationId, verificationId, redirectUri)
      : undefined;
  if (started) return { loginUrl: started.authorizationUrl, state: started.state };
  const loginUrl = organizationId ? await ctx.organizations.loginUrl(organizationId) : '';
  if (!loginUrl)
    throw notFound(`Verification ${verificationId} has no single sign-on page`, {
      errorIds: ['invalidStep'],
    });
  return { loginUrl, state: '' };
}

/**
 * The browser's return from the provider: success (verificationMethod SSO) when the organization's rule held,
 * else docUpload with why. A verification that left sso meanwhile (cancelled, expired) is answered as it is.
 */
export async function finishSso(
  ctx: AppContext,
  input: { state: string; callbackUrl: string },
): Promise<{ verification: VerificationAnswer; programId: string }> {
  const finished = await ctx.organizations.finishSso(input.state, input.callbackUrl);
  if (!finished)
    throw notFound('No sign-on has this state: unknown, already used, or lapsed', {
      errorIds: ['invalidStep'],
    });
  const { verificationId } = finished;
  const found = await findVerification(ctx.db, verificationId);
  if (!found) throw noVerification(verificationId);
  const verification = await takeStep(
    ctx,
    { verificationId },
    'finishSso',
    (trx, { record, program }, cause) => {
      // The sign-on speaks for the organization it was started with, which must still be the verification's.
      const eligible = finished.outcome === 'eligible' && record.organizationId === finished.organizationId;
      if (eligible) return succeed(trx, ctx, record, program, { cause, verificationMethod: 'SSO' });
      return applyChange(trx, ctx, record, program, {
        cause,
        step: 'docUpload',
        systemErrorMessage: `Single sign-on did not prove eligibility (${finished.reason || finished.outcome}): documents are needed instead`,
      });
    },
  );
  // Whatever the outcome, even the person limit's error, the hosted page shows it: nothing is thrown here.
  return { verification, programId: found.programId };
}
