import type { OrganizationDraft } from './organization';
import { fold } from './fold';

/**
 * Armed-forces branches, curated by hand (swot lists only academic domains), so that military programs and
 * the deprecated /organization/military search have real answers on a fresh catalog. Domains only where the
 * branch has its own well-known one.
 */
const BRANCHES: readonly { country: string; slug: string; name: string; domains: string[] }[] = [
  { country: 'US', slug: 'army', name: 'United States Army', domains: ['army.mil'] },
  { country: 'US', slug: 'navy', name: 'United States Navy', domains: ['navy.mil'] },
  { country: 'US', slug: 'air-force', name: 'United States Air Force', domains: ['af.mil'] },
  { country: 'US', slug: 'marine-corps', name: 'United States Marine Corps', domains: ['marines.mil'] },
  { country: 'US', slug: 'coast-guard', name: 'United States Coast Guard', domains: ['uscg.mil'] },
  { country: 'US', slug: 'space-force', name: 'United States Space Force', domains: ['spaceforce.mil'] },
  { country: 'US', slug: 'army-national-guard', name: 'Army National Guard', domains: ['nationalguard.mil'] },
  { country: 'US', slug: 'air-national-guard', name: 'Air National Guard', domains: ['ang.af.mil'] },
  { country: 'GB', slug: 'british-army', name: 'British Army', domains: ['army.mod.uk'] },
  { country: 'GB', slug: 'royal-navy', name: 'Royal Navy', domains: ['royalnavy.mod.uk'] },
  { country: 'GB', slug: 'royal-air-force', name: 'Royal Air Force', domains: ['raf.mod.uk'] },
  { country: 'GB', slug: 'royal-marines', name: 'Royal Marines', domains: [] },
  { country: 'CA', slug: 'canadian-army', name: 'Canadian Army', domains: ['army-armee.forces.gc.ca'] },
  {
    country: 'CA',
    slug: 'royal-canadian-navy',
    name: 'Royal Canadian Navy',
    domains: ['navy-marine.forces.gc.ca'],
  },
  {
    country: 'CA',
    slug: 'royal-canadian-air-force',
    name: 'Royal Canadian Air Force',
    domains: ['rcaf-arc.forces.gc.ca'],
  },
  { country: 'AU', slug: 'australian-army', name: 'Australian Army', domains: ['army.gov.au'] },
  { country: 'AU', slug: 'royal-australian-navy', name: 'Royal Australian Navy', domains: ['navy.gov.au'] },
  {
    country: 'AU',
    slug: 'royal-australian-air-force',
    name: 'Royal Australian Air Force',
    domains: ['airforce.gov.au'],
  },
];

export function militarySeedRows(): OrganizationDraft[] {
  return BRANCHES.map((b) => ({
    externalKey: `military:${b.country.toLowerCase()}:${b.slug}`,
    name: b.name,
    searchName: fold(b.name),
    type: 'MILITARY',
    country: b.country,
    domains: b.domains,
    city: '',
    state: '',
    loginUrl: '',
  }));
}
