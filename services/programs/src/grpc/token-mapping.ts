import { programsV1 } from '@eligo/proto';
import { invalidRequest } from '../domain/invalid';
import type { TokenRole } from '../domain/tokens';

const { TokenRole: TR } = programsV1;

const fromProto = new Map<number, TokenRole>([
  [TR.TOKEN_ROLE_REPORTER, 'REPORTER'],
  [TR.TOKEN_ROLE_PII, 'PII'],
  [TR.TOKEN_ROLE_BULK_VERIFIER, 'BULK_VERIFIER'],
]);
const toProto: Record<TokenRole, programsV1.TokenRole> = {
  REPORTER: TR.TOKEN_ROLE_REPORTER,
  PII: TR.TOKEN_ROLE_PII,
  BULK_VERIFIER: TR.TOKEN_ROLE_BULK_VERIFIER,
};

/** UNSPECIFIED carries no meaning and is dropped; a role the contract does not know is refused. */
export function rolesFromProto(roles: readonly number[]): TokenRole[] {
  const out: TokenRole[] = [];
  for (const value of roles) {
    if (value === TR.TOKEN_ROLE_UNSPECIFIED) continue;
    const role = fromProto.get(value);
    if (role === undefined) throw invalidRequest(`roles: unknown role ${value}`);
    out.push(role);
  }
  return out;
}

export function rolesToProto(roles: readonly TokenRole[]): programsV1.TokenRole[] {
  return roles.map((role) => toProto[role]);
}
