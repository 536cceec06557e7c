/**
 * Test support: request bodies several gateway tests send, each valid as it stands; a test changes a field to
 * see it refused, or sends it as is to reach the service.
 */

/** POST /rest/v2/organization/addSchool with every field the spec names, for program abab…ab. */
export const addSchoolRequest = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.edu',
  schoolName: 'Analytical College',
  schoolDomain: 'analytical.edu',
  schoolCountry: 'US',
  programId: 'ab'.repeat(12),
};
