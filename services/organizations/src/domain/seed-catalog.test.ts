import { checkOrganizationInput } from './organization-input';
import { Problems } from './problems';
import { militarySeedRows } from './military-branches';
import { buildSeedCatalog } from './seed-catalog';

describe('buildSeedCatalog', () => {
  const entries = [
    { host: 'stanford.edu', name: 'Stanford University' },
    { host: 'cs.stanford.edu', name: 'Stanford  University' },
    { host: 'ox.ac.uk', name: 'University of Oxford' },
    { host: 'docente.ceibal.edu.uy', name: 'Plan Ceibal' },
    { host: 'example.com', name: 'Example Academy' },
    { host: 'spam.edu', name: 'Spam College' },
    { host: 'sub.abused.edu', name: 'Abused University' },
    { host: 'nameless.edu', name: '  ' },
    { host: 'bad_host.edu', name: 'Bad Host College' },
    { host: 'uni-zurich.swiss', name: 'Universität Zürich' },
  ];
  const catalog = buildSeedCatalog(entries, new Set(['spam.edu', 'abused.edu']));

  it('groups domains of one name and country, keyed by the first domain', () => {
    expect(catalog.rows.find((r) => r.externalKey === 'swot:cs.stanford.edu')).toEqual({
      externalKey: 'swot:cs.stanford.edu',
      name: 'Stanford  University',
      searchName: 'stanford university',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['cs.stanford.edu', 'stanford.edu'],
      city: '',
      state: '',
      loginUrl: '',
    });
  });

  it('derives the country from the TLD and skips what it cannot place or must not list', () => {
    expect(catalog.rows.map((r) => [r.externalKey, r.country, r.type])).toEqual([
      ['swot:cs.stanford.edu', 'US', 'UNIVERSITY'],
      ['swot:docente.ceibal.edu.uy', 'UY', 'POST_SECONDARY'],
      ['swot:ox.ac.uk', 'GB', 'UNIVERSITY'],
      ['swot:uni-zurich.swiss', 'CH', 'UNIVERSITY'],
    ]);
    expect(catalog).toMatchObject({ domains: 10, skippedNoCountry: 1, skippedListed: 2, skippedInvalid: 2 });
  });
});

describe('militarySeedRows', () => {
  it('lists real branches of four countries, each a valid organization', () => {
    const rows = militarySeedRows();
    expect(new Set(rows.map((r) => r.country))).toEqual(new Set(['US', 'GB', 'CA', 'AU']));
    expect(rows.find((r) => r.externalKey === 'military:us:army')).toMatchObject({
      name: 'United States Army',
      type: 'MILITARY',
      domains: ['army.mil'],
    });
    for (const row of rows) {
      const problems = new Problems();
      expect(checkOrganizationInput(row, problems)).toEqual(row);
      expect(problems.message()).toBe('');
    }
  });
});
