import type { ErrorId } from './error-ids';
import { MAX_METADATA_KEYS, metadataKeys, metadataProblems, metadataRequestProblem } from './metadata';

function entries(count: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, 'v']));
}

describe('metadataProblems', () => {
  it.each<[string, Record<string, string>, ErrorId[]]>([
    ['an empty map', {}, []],
    ['a typical map', { orderId: '123', channel: 'app' }, []],
    ['50 keys', entries(MAX_METADATA_KEYS), []],
    ['51 keys', entries(MAX_METADATA_KEYS + 1), ['maxMetadataValuesExceeded']],
    ['a 64-character key', { ['k'.repeat(64)]: 'v' }, []],
    ['a 65-character key', { ['k'.repeat(65)]: 'v' }, ['maxMetadataLengthExceeded']],
    ['an empty key', { '': 'v' }, ['invalidRequest']],
    ['a 1024-character value', { k: 'v'.repeat(1024) }, []],
    ['a 1025-character value', { k: 'v'.repeat(1025) }, ['maxMetadataLengthExceeded']],
    ['characters, not UTF-16 units, are counted', { k: '𠮷'.repeat(1024) }, []],
    ['an empty value', { k: '' }, []],
    // JSON.parse makes __proto__ an own key; a plain-object map would drop it without a word.
    [
      'the reserved key __proto__',
      JSON.parse('{"__proto__": "x"}') as Record<string, string>,
      ['invalidRequest'],
    ],
    ['a key that merely contains __proto__', { __proto__x: 'v', constructor: 'v' }, []],
    ['a NUL in a key', { 'a\u0000b': 'v' }, ['invalidRequest']],
    ['a line break in a value', { k: 'line\nbreak' }, ['invalidRequest']],
    ['a C1 control character in a value', { k: 'a\u0085' }, ['invalidRequest']],
    ['a line separator in a key', { 'a\u2028': 'v' }, ['invalidRequest']],
    ['a tab in a value', { k: 'a\tb' }, ['invalidRequest']],
    ['non-ASCII text without control characters', { clé: 'Zürich 東京 🎓' }, []],
    [
      'every problem at once, each once, in a fixed order',
      { '': 'x', ...entries(60), long: 'v'.repeat(2000), longer: 'v'.repeat(3000) },
      ['maxMetadataValuesExceeded', 'maxMetadataLengthExceeded', 'invalidRequest'],
    ],
  ])('%s -> %j', (_, metadata, expected) => {
    expect(metadataProblems(metadata)).toEqual(expected);
  });
});

describe('metadataRequestProblem', () => {
  it.each<[string, Record<string, string>, string | undefined]>([
    ['a valid map', { plan: 'pro' }, undefined],
    [
      'too many keys is not its concern',
      Object.fromEntries([...Array(60).keys()].map((i) => [`k${i}`, 'v'])),
      undefined,
    ],
    ['an empty key', { '': 'v' }, 'metadata: a key must not be empty'],
    [
      '__proto__',
      JSON.parse('{"a": "1", "__proto__": "x"}') as Record<string, string>,
      'metadata: the key "__proto__" is reserved',
    ],
    [
      'a NUL in a key',
      { 'a\u0000': 'v' },
      'metadata: the key "a\\u0000" must not contain control characters',
    ],
    ['a control character in a value', { k: 'a\rb' }, 'metadata["k"] must not contain control characters'],
  ])('%s', (_, metadata, expected) => {
    expect(metadataRequestProblem(metadata)).toBe(expected);
  });
});

describe('metadataKeys', () => {
  it.each<[string, Record<string, string>, string[]]>([
    ['an empty map', {}, []],
    ['keys in any order come out sorted', { zeta: '1', alpha: '2', Mid: '3' }, ['Mid', 'alpha', 'zeta']],
    // Object.keys lists integer-like keys first, in numeric order; the event's order must not depend on it.
    ['integer-like keys sort as text', { b: 'x', '10': 'y', '9': 'z' }, ['10', '9', 'b']],
  ])('%s -> %j', (_, metadata, expected) => {
    expect(metadataKeys(metadata)).toEqual(expected);
  });
});
