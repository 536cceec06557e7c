import { containsPattern } from './db';

describe('containsPattern', () => {
  it('matches the text anywhere, its own wildcards and escape character taken literally', () => {
    expect(containsPattern('Acme')).toBe('%Acme%');
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
