import { fold } from './fold';
import type { OrganizationType } from './organization';

/**
 * Guesses an academic institution's type from its name, for the swot seed (whose list says only "academic").
 * Checked in order, first match wins: the narrower kinds of school before the broad words, so that
 * "University High School" is a high school and "Lakeside Unified School District" K-12. Patterns run on the
 * folded name (Lycée -> lycee, Universität -> universitat), as whole words unless they end in a stem.
 */
const RULES: readonly [OrganizationType, RegExp][] = [
  ['K12', /\b(school district|public schools|elementary|primary school|middle school|unified school|k 12)\b/],
  ['HIGH_SCHOOL', /\b(high school|secondary school|gymnasium|lycee|liceo|senior high)\b/],
  ['UNIVERSITY', /\b(univers|uniwersytet|univerzit|institute of technology)/],
  [
    'POST_SECONDARY',
    /\b(college|institute|institut|polytechnic|politecnico|hochschule|ecole|escuela|academy|akademi|seminary|conservatory|conservatoire|school of|business school|law school|medical school)/,
  ],
];

export function classifyInstitution(name: string): OrganizationType {
  return classifyFolded(fold(name));
}

/** The same on an already folded name (the seed folds each name once). */
export function classifyFolded(folded: string): OrganizationType {
  for (const [type, pattern] of RULES) if (pattern.test(folded)) return type;
  return 'POST_SECONDARY';
}
