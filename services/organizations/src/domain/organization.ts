import { ORGANIZATION_TYPES } from '@eligo/vocabulary';

export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export function isOrganizationType(value: string): value is OrganizationType {
  return (ORGANIZATION_TYPES as readonly string[]).includes(value);
}

/** An entry of the catalog as stored. */
export interface Organization {
  id: number;
  externalKey: string;
  name: string;
  type: OrganizationType;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** Lower-case host names. */
  domains: string[];
  /** '' when not known. */
  city: string;
  state: string;
  /** The organization's single sign-on page (an absolute https URL); '' when it has none. */
  loginUrl: string;
}

/** A validated organization about to be written: the stored fields plus its folded name. */
export interface OrganizationDraft {
  externalKey: string;
  name: string;
  /** fold(name): what searches match. */
  searchName: string;
  type: OrganizationType;
  country: string;
  domains: string[];
  city: string;
  state: string;
  loginUrl: string;
}
