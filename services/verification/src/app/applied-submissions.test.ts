import { AppliedSubmissions } from './applied-submissions';

describe('AppliedSubmissions', () => {
  it('knows the review noted for a verification, not another', () => {
    const applied = new AppliedSubmissions();
    applied.noteApplied('v1', 'r1');
    expect(applied.wasApplied('v1', 'r1')).toBe(true);
    expect(applied.wasApplied('v1', 'r2')).toBe(false);
    expect(applied.wasApplied('v2', 'r1')).toBe(false);
  });

  it('keeps the latest review of a verification', () => {
    const applied = new AppliedSubmissions();
    applied.noteApplied('v1', 'r1');
    applied.noteApplied('v1', 'r2');
    expect(applied.wasApplied('v1', 'r1')).toBe(false);
    expect(applied.wasApplied('v1', 'r2')).toBe(true);
  });

  it('forgets the oldest note past its capacity; a renewed note counts as new', () => {
    const applied = new AppliedSubmissions(2);
    applied.noteApplied('v1', 'r1');
    applied.noteApplied('v2', 'r2');
    applied.noteApplied('v1', 'r3'); // v1 renewed: v2 is now the oldest
    applied.noteApplied('v3', 'r4');
    expect(applied.wasApplied('v2', 'r2')).toBe(false);
    expect(applied.wasApplied('v1', 'r3')).toBe(true);
    expect(applied.wasApplied('v3', 'r4')).toBe(true);
  });
});
