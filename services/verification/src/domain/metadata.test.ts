import type { ErrorId } from '@eligo/programs';
import { MAX_METADATA_KEYS, metadataKeys, metadataProblems } from './metadata';

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
    [
      'every problem at once, each once, in a fixed order',
      { '': 'x', ...entries(60), long: 'v'.repeat(2000), longer: 'v'.repeat(3000) },
      ['maxMetadataValuesExceeded', 'maxMetadataLengthExceeded', 'invalidRequest'],
    ],
  ])('%s -> %j', (_, metadata, expected) => {
    expect(metadataProblems(metadata)).toEqual(expected);
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
