import { sinceInstant } from './staff-commands';

describe('eligo admin audit --since', () => {
  const now = Date.parse('2025-03-01T12:00:00.000Z');

  it.each([
    ['30m', '2025-03-01T11:30:00.000Z'],
    ['24h', '2025-02-28T12:00:00.000Z'],
    ['7d', '2025-02-22T12:00:00.000Z'],
    ['90s', '2025-03-01T11:58:30.000Z'],
  ])('reads the duration %s back from now', (since, instant) => {
    expect(sinceInstant(since, now)).toBe(instant);
  });

  it('passes an RFC 3339 instant on as it is', () => {
    expect(sinceInstant('2025-03-01T10:00:00+02:00', now)).toBe('2025-03-01T10:00:00+02:00');
  });

  it.each(['yesterday', '7w', ''])('refuses %j', (since) => {
    expect(() => sinceInstant(since, now)).toThrow(/--since/);
  });
});
