import { programsV1 } from '@eligo/proto';
import { bindService, getInfoResponse, type GrpcServiceBinding, type ServiceContext } from '@eligo/runtime';
import { createAccount, getAccount, listAccounts } from '../app/accounts';
import { authenticate, issueOAuthToken } from '../app/auth';
import type { AppContext } from '../app/context';
import { createProgram, getProgram, getTheme, listPrograms, updateProgram } from '../app/programs';
import { confirmRewardClaim, listUnconfirmedRewardClaims, releaseRewardClaim } from '../app/reward-claims';
import { addRewardCodes, claimRewardCode, getRewardCodePoolLevel } from '../app/reward-codes';
import { getSendLinkRequest, sendLink } from '../app/send-link';
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../app/tokens';
import { createVerificationLimit, deleteVerificationLimit } from '../app/verification-limits';
import {
  createWebhook,
  deleteWebhook,
  getWebhookDelivery,
  rotateWebhookSigningSecret,
} from '../app/webhooks';
import {
  accessTokenToProto,
  accountOverviewToProto,
  modeFilterFromProto,
  notificationsFromProto,
  programInputFromProto,
  programSummaryToProto,
  programToProto,
  rolesFromProto,
  rolesToProto,
  themeToProto,
  webhookDeliveryToProto,
} from './mapping';

/** The gRPC face of the programs service: each handler converts, calls one use case, converts back. */
export function programsGrpcService({ deps }: ServiceContext, app: AppContext): GrpcServiceBinding {
  return bindService(
    programsV1.ProgramsServiceService,
    {
      getInfo: async () => getInfoResponse(deps),

      createAccount: async (req) => {
        const account = await createAccount(app, req.name);
        return { account: { accountId: account.id, name: account.name, createdAt: account.createdAt } };
      },
      createAccessToken: async (req) => {
        const roles = rolesFromProto(req.roles);
        const created = await createAccessToken(app, { accountId: req.accountId, name: req.name, roles });
        return {
          tokenId: created.record.id,
          token: created.token,
          clientId: created.clientId,
          clientSecret: created.clientSecret,
          name: created.record.name,
          roles: rolesToProto(created.record.roles),
          createdAt: created.record.createdAt,
        };
      },
      revokeAccessToken: async (req) => {
        await revokeAccessToken(app, req.accountId, req.tokenId);
        return {};
      },
      authenticate: async (req) => {
        const principal = await authenticate(app, req.token);
        return {
          accountId: principal.accountId,
          tokenId: principal.tokenId,
          roles: rolesToProto(principal.roles),
          expiresAt: principal.expiresAt,
        };
      },
      issueOAuthToken: async (req) => {
        const issued = await issueOAuthToken(app, req.clientId, req.clientSecret);
        return {
          accessToken: issued.accessToken,
          tokenType: 'Bearer',
          expiresInSeconds: issued.expiresInSeconds,
        };
      },

      createProgram: async (req) => {
        const created = await createProgram(app, programInputFromProto(req.program));
        return {
          program: programToProto(created.program),
          webhookSigningSecret: created.webhookSigningSecret,
        };
      },
      getProgram: async (req) => ({
        program: programToProto(await getProgram(app, req.programId, req.accountId)),
      }),
      updateProgram: async (req) => {
        const updated = await updateProgram(app, {
          programId: req.programId,
          accountId: req.accountId,
          input: programInputFromProto(req.program),
          mask: req.updateMask ?? [],
        });
        return {
          program: programToProto(updated.program),
          webhookSigningSecret: updated.webhookSigningSecret,
        };
      },
      getTheme: async (req) => ({ theme: themeToProto(await getTheme(app, req.programId, req.accountId)) }),

      createVerificationLimit: async (req) => ({
        program: programToProto(await createVerificationLimit(app, req)),
      }),
      deleteVerificationLimit: async (req) => ({
        program: programToProto(await deleteVerificationLimit(app, req.programId, req.accountId)),
      }),
      createWebhook: async (req) => {
        const created = await createWebhook(app, {
          programId: req.programId,
          accountId: req.accountId,
          callbackUri: req.callbackUri,
          notifications: notificationsFromProto(req.notifications),
        });
        return { program: programToProto(created.program), signingSecret: created.webhookSigningSecret };
      },
      deleteWebhook: async (req) => ({
        program: programToProto(await deleteWebhook(app, req.programId, req.accountId)),
      }),
      getWebhookDelivery: async (req) => webhookDeliveryToProto(await getWebhookDelivery(app, req.programId)),

      sendLink: async (req) => {
        const requestId = await sendLink(app, {
          programId: req.programId,
          accountId: req.accountId,
          email: req.recipient?.$case === 'email' ? req.recipient.email : undefined,
          phoneNumber: req.recipient?.$case === 'phoneNumber' ? req.recipient.phoneNumber : undefined,
          trackingId: req.trackingId,
        });
        return { requestId };
      },
      getSendLinkRequest: async (req) => {
        const view = await getSendLinkRequest(app, req.requestId);
        return {
          requestId: view.requestId,
          programId: view.programId,
          recipient:
            view.recipient.channel === 'EMAIL'
              ? { $case: 'email', email: view.recipient.email }
              : { $case: 'phoneNumber', phoneNumber: view.recipient.phoneNumber },
          trackingId: view.trackingId,
          createdAt: view.createdAt,
        };
      },

      addRewardCodes: async (req) => addRewardCodes(app, req.programId, req.codes),
      claimRewardCode: async (req) => claimRewardCode(app, req.programId, req.verificationId),
      listUnconfirmedRewardClaims: async (req) => listUnconfirmedRewardClaims(app, req),
      confirmRewardClaim: async (req) => ({ confirmed: await confirmRewardClaim(app, req) }),
      releaseRewardClaim: async (req) => releaseRewardClaim(app, req),

      listAccounts: async (req) => {
        const page = await listAccounts(app, req);
        return { accounts: page.accounts.map(accountOverviewToProto), nextPageToken: page.nextPageToken };
      },
      getAccount: async (req) => ({ account: accountOverviewToProto(await getAccount(app, req.accountId)) }),
      listAccessTokens: async (req) => {
        const page = await listAccessTokens(app, req);
        return { tokens: page.tokens.map(accessTokenToProto), nextPageToken: page.nextPageToken };
      },
      listPrograms: async (req) => {
        const page = await listPrograms(app, { ...req, mode: modeFilterFromProto(req.mode) });
        return { programs: page.programs.map(programSummaryToProto), nextPageToken: page.nextPageToken };
      },
      getRewardCodePoolLevel: async (req) => getRewardCodePoolLevel(app, req.programId, req.accountId),
      rotateWebhookSigningSecret: async (req) => {
        const rotated = await rotateWebhookSigningSecret(app, req.programId, req.accountId);
        return { program: programToProto(rotated.program), signingSecret: rotated.webhookSigningSecret };
      },
    },
    deps.logger,
  );
}
