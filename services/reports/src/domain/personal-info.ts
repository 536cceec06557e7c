/**
 * A person's details as a PII report shows them, as the verification service gives them (app/ports.ts
 * converts its StreamPersonalInfo rows). A field not given is the empty string, and shows as an empty cell.
 */
export interface PersonalInfo {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  /** YYYY-MM-DD. */
  birthDate: string;
  postalCode: string;
  country: string;
  metadata: Readonly<Record<string, string>>;
}
