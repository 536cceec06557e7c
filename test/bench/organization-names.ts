/**
 * A synthetic but realistically shaped catalog for the search benchmark: names built the way school names are
 * (University of X, X State University, X Community College, Saint X High School, ...), places made of
 * syllables so that trigram statistics resemble real text rather than repeating a few words.
 */
const SYLLABLES = [
  'ban',
  'ber',
  'bro',
  'cal',
  'car',
  'ches',
  'dal',
  'den',
  'don',
  'el',
  'fair',
  'field',
  'ford',
  'gar',
  'glen',
  'ham',
  'har',
  'hill',
  'ing',
  'kent',
  'lan',
  'ley',
  'lin',
  'mar',
  'mont',
  'mor',
  'ness',
  'new',
  'nor',
  'ox',
  'port',
  'ra',
  'ridge',
  'ros',
  'sal',
  'shire',
  'stan',
  'ter',
  'ton',
  'vale',
  'ver',
  'wes',
  'wick',
  'win',
  'wood',
  'zur',
  'ich',
  'lé',
  'mü',
  'nchen',
  'ö',
  'san',
  'ta',
  'ri',
  'ja',
  'pa',
];
const PATTERNS = [
  (p: string) => `University of ${p}`,
  (p: string) => `${p} State University`,
  (p: string) => `${p} Community College`,
  (p: string) => `${p} High School`,
  (p: string) => `Saint ${p} Academy`,
  (p: string) => `${p} Institute of Technology`,
  (p: string) => `Universidad de ${p}`,
  (p: string) => `${p} College of Nursing`,
  (p: string) => `Technische Hochschule ${p}`,
  (p: string) => `${p} Unified School District`,
];
const TYPES = [
  'UNIVERSITY',
  'UNIVERSITY',
  'POST_SECONDARY',
  'HIGH_SCHOOL',
  'HIGH_SCHOOL',
  'POST_SECONDARY',
  'UNIVERSITY',
  'POST_SECONDARY',
  'POST_SECONDARY',
  'K12',
];
const COUNTRIES = ['US', 'US', 'US', 'GB', 'CA', 'DE', 'FR', 'ES', 'MX', 'AU', 'IN', 'BR'];

/** A deterministic pseudo-random sequence (the same catalog every run). */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function place(random: () => number): string {
  const parts = 2 + Math.floor(random() * 2);
  let name = '';
  for (let i = 0; i < parts; i++) name += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export interface BenchOrganization {
  externalId: string;
  name: string;
  type: string;
  country: string;
}

export function* benchOrganizations(count: number, seed = 42): Generator<BenchOrganization> {
  const random = rng(seed);
  for (let i = 0; i < count; i++) {
    const pattern = Math.floor(random() * PATTERNS.length);
    yield {
      externalId: `bench-${i}`,
      name: PATTERNS[pattern]!(place(random)),
      type: TYPES[pattern]!,
      country: COUNTRIES[Math.floor(random() * COUNTRIES.length)]!,
    };
  }
}

/**
 * What people type into the search box: 55% a prefix of a real name (3 to 12 characters), 20% the whole name,
 * 15% a word from the middle of a name, 10% the name with two letters swapped (a typo).
 */
export function searchTexts(names: readonly string[], count: number, seed = 7): string[] {
  const random = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[Math.floor(random() * names.length)]!;
    const roll = random();
    if (roll < 0.55) out.push(name.slice(0, 3 + Math.floor(random() * 10)));
    else if (roll < 0.75) out.push(name);
    else if (roll < 0.9) {
      const words = name.split(' ').filter((w) => w.length >= 4);
      out.push(words[Math.floor(random() * words.length)] ?? name);
    } else {
      const at = 1 + Math.floor(random() * Math.max(1, name.length - 3));
      out.push(name.slice(0, at) + name.charAt(at + 1) + name.charAt(at) + name.slice(at + 2));
    }
  }
  return out;
}
