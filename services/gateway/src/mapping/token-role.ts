import { programsV1 } from '@eligo/proto';
import type { TokenRoleName } from '../auth/principal';

const { TokenRole } = programsV1;

const byName: Readonly<Record<TokenRoleName, programsV1.TokenRole>> = {
  REPORTER: TokenRole.TOKEN_ROLE_REPORTER,
  PII: TokenRole.TOKEN_ROLE_PII,
  BULK_VERIFIER: TokenRole.TOKEN_ROLE_BULK_VERIFIER,
};

export function tokenRoleToProto(name: TokenRoleName): programsV1.TokenRole {
  return byName[name];
}

/** Roles the gateway does not know (a newer service) are left out rather than shown as a made-up name. */
export function tokenRolesFromProto(roles: readonly programsV1.TokenRole[]): TokenRoleName[] {
  const names: TokenRoleName[] = [];
  for (const [name, value] of Object.entries(byName) as [TokenRoleName, programsV1.TokenRole][]) {
    if (roles.includes(value)) names.push(name);
  }
  return names;
}
