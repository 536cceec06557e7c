import { notFound } from '@eligo/runtime';
import { checkSsoSettings, type SsoSettingsInput } from '../domain/sso-settings';
import type { SsoRule } from '../domain/sso-rule';
import {
  deleteOrganizationSso as deleteSsoRow,
  findOrganizationSso,
  upsertOrganizationSso,
  type OrganizationSsoRecord,
} from '../repository/organization-sso.repository';
import type { AppContext } from './context';
import { getOrganization } from './organizations';

/** An organization's OpenID Connect client as answered: never its secret, only whether one is stored. */
export interface OrganizationSsoView {
  organizationId: number;
  issuer: string;
  clientId: string;
  hasClientSecret: boolean;
  scopes: string[];
  rule: SsoRule;
  updatedAt: Date;
}

/** The client secret's encryption is bound to the organization: a secret copied to another row does not open. */
export const clientSecretContext = (organizationId: number) => `organization:${organizationId}`;

/**
 * SetOrganizationSso: checks every field (INVALID_ARGUMENT naming each bad one), then creates or replaces the
 * organization's client; an empty secret keeps the stored one. NOT_FOUND noOrganization for an unknown one.
 */
export async function setOrganizationSso(
  ctx: AppContext,
  organizationId: number,
  input: SsoSettingsInput,
): Promise<OrganizationSsoView> {
  const settings = checkSsoSettings(input, ctx.sso.allowCidrs);
  await getOrganization(ctx, organizationId);
  const stored = await upsertOrganizationSso(ctx.db, {
    organizationId,
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecretEncrypted:
      settings.clientSecret === undefined
        ? null
        : ctx.sso.clientSecrets.encrypt(settings.clientSecret, clientSecretContext(organizationId)),
    scopes: settings.scopes,
    rule: settings.rule,
  });
  return view(stored);
}

/** GetOrganizationSso: NOT_FOUND noOrganization, or NOT_FOUND without an errorId when it has no client. */
export async function getOrganizationSso(
  ctx: AppContext,
  organizationId: number,
): Promise<OrganizationSsoView> {
  return view(await requireOrganizationSso(ctx, organizationId));
}

/** DeleteOrganizationSso: as GetOrganizationSso when there is nothing to delete. */
export async function deleteOrganizationSso(ctx: AppContext, organizationId: number): Promise<void> {
  await getOrganization(ctx, organizationId);
  if (!(await deleteSsoRow(ctx.db, organizationId))) throw noSso();
}

/** The stored client of a catalog organization, or the NOT_FOUND of GetOrganizationSso. */
export async function requireOrganizationSso(
  ctx: AppContext,
  organizationId: number,
): Promise<OrganizationSsoRecord> {
  await getOrganization(ctx, organizationId);
  const stored = await findOrganizationSso(ctx.db, organizationId);
  if (!stored) throw noSso();
  return stored;
}

/** A known organization without single sign-on: no errorId of the spec names it (the gateway answers ER 404). */
const noSso = () => notFound('The organization has no single sign-on', { reason: 'noOrganizationSso' });

function view(stored: OrganizationSsoRecord): OrganizationSsoView {
  return {
    organizationId: stored.organizationId,
    issuer: stored.issuer,
    clientId: stored.clientId,
    hasClientSecret: stored.clientSecretEncrypted !== null,
    scopes: stored.scopes,
    rule: stored.rule,
    updatedAt: stored.updatedAt,
  };
}
