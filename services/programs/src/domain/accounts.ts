import { requireValid } from './invalid';
import { checkName } from './text';

export const MAX_ACCOUNT_NAME = 200;

/** An account as the staff console shows it: with its numbers of live (not revoked) tokens and programs. */
export interface AccountOverview {
  id: string;
  name: string;
  createdAt: Date;
  tokenCount: number;
  programCount: number;
}

/** An account's display name, trimmed; INVALID_ARGUMENT invalidRequest when empty or too long. */
export function validateAccountName(value: string): string {
  const { name, problem } = checkName(value, MAX_ACCOUNT_NAME);
  requireValid('name', problem);
  return name;
}
