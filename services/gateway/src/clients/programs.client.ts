import type { programsV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

type Service = typeof programsV1.ProgramsServiceService;

/**
 * The programs RPCs the gateway calls, one typed method each. Every call goes through the runtime client, so
 * it carries the configured deadline, retries UNAVAILABLE and sits behind the circuit breaker. The
 * service-to-service RPCs (GetWebhookDelivery hands out the signing secret, GetSendLinkRequest the
 * recipient, ClaimRewardCode a code) are left out on purpose: no REST request may reach them.
 */
export interface ProgramsClient {
  createAccount(req: programsV1.CreateAccountRequest): Promise<programsV1.CreateAccountResponse>;
  createAccessToken(req: programsV1.CreateAccessTokenRequest): Promise<programsV1.CreateAccessTokenResponse>;
  revokeAccessToken(req: programsV1.RevokeAccessTokenRequest): Promise<programsV1.RevokeAccessTokenResponse>;
  authenticate(req: programsV1.AuthenticateRequest): Promise<programsV1.AuthenticateResponse>;
  issueOAuthToken(req: programsV1.IssueOAuthTokenRequest): Promise<programsV1.IssueOAuthTokenResponse>;
  createProgram(req: programsV1.CreateProgramRequest): Promise<programsV1.CreateProgramResponse>;
  getProgram(req: programsV1.GetProgramRequest): Promise<programsV1.GetProgramResponse>;
  updateProgram(req: programsV1.UpdateProgramRequest): Promise<programsV1.UpdateProgramResponse>;
  getTheme(req: programsV1.GetThemeRequest): Promise<programsV1.GetThemeResponse>;
  createVerificationLimit(
    req: programsV1.CreateVerificationLimitRequest,
  ): Promise<programsV1.CreateVerificationLimitResponse>;
  deleteVerificationLimit(
    req: programsV1.DeleteVerificationLimitRequest,
  ): Promise<programsV1.DeleteVerificationLimitResponse>;
  createWebhook(req: programsV1.CreateWebhookRequest): Promise<programsV1.CreateWebhookResponse>;
  deleteWebhook(req: programsV1.DeleteWebhookRequest): Promise<programsV1.DeleteWebhookResponse>;
  sendLink(req: programsV1.SendLinkRequest): Promise<programsV1.SendLinkResponse>;
  addRewardCodes(req: programsV1.AddRewardCodesRequest): Promise<programsV1.AddRewardCodesResponse>;
  // The staff console's lists and reads (admin API, operator calls).
  listAccounts(req: programsV1.ListAccountsRequest): Promise<programsV1.ListAccountsResponse>;
  getAccount(req: programsV1.GetAccountRequest): Promise<programsV1.GetAccountResponse>;
  listAccessTokens(req: programsV1.ListAccessTokensRequest): Promise<programsV1.ListAccessTokensResponse>;
  listPrograms(req: programsV1.ListProgramsRequest): Promise<programsV1.ListProgramsResponse>;
  getRewardCodePoolLevel(
    req: programsV1.GetRewardCodePoolLevelRequest,
  ): Promise<programsV1.GetRewardCodePoolLevelResponse>;
  rotateWebhookSigningSecret(
    req: programsV1.RotateWebhookSigningSecretRequest,
  ): Promise<programsV1.RotateWebhookSigningSecretResponse>;
}

/** Wraps the module's one programs channel (clients.ts); built once in createModule. */
export function createProgramsClient(client: GrpcClient<Service>): ProgramsClient {
  return {
    createAccount: (req) => client.unary('createAccount', req),
    createAccessToken: (req) => client.unary('createAccessToken', req),
    revokeAccessToken: (req) => client.unary('revokeAccessToken', req),
    authenticate: (req) => client.unary('authenticate', req),
    issueOAuthToken: (req) => client.unary('issueOAuthToken', req),
    createProgram: (req) => client.unary('createProgram', req),
    getProgram: (req) => client.unary('getProgram', req),
    updateProgram: (req) => client.unary('updateProgram', req),
    getTheme: (req) => client.unary('getTheme', req),
    createVerificationLimit: (req) => client.unary('createVerificationLimit', req),
    deleteVerificationLimit: (req) => client.unary('deleteVerificationLimit', req),
    createWebhook: (req) => client.unary('createWebhook', req),
    deleteWebhook: (req) => client.unary('deleteWebhook', req),
    sendLink: (req) => client.unary('sendLink', req),
    addRewardCodes: (req) => client.unary('addRewardCodes', req),
    listAccounts: (req) => client.unary('listAccounts', req),
    getAccount: (req) => client.unary('getAccount', req),
    listAccessTokens: (req) => client.unary('listAccessTokens', req),
    listPrograms: (req) => client.unary('listPrograms', req),
    getRewardCodePoolLevel: (req) => client.unary('getRewardCodePoolLevel', req),
    rotateWebhookSigningSecret: (req) => client.unary('rotateWebhookSigningSecret', req),
  };
}
