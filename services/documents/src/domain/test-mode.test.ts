import { testModeDecision } from './test-mode';

describe('testModeDecision', () => {
  it.each<[string[], unknown]>([
    [['id_ACCEPTED.png'], { approved: true, rejectionReasons: [] }],
    [['id_REJECTED.png'], { approved: false, rejectionReasons: ['DOCUMENT_UNREADABLE'] }],
    // REJECTED wins over ACCEPTED, whichever file carries it.
    [['a_ACCEPTED.png', 'b_REJECTED.pdf'], { approved: false, rejectionReasons: ['DOCUMENT_UNREADABLE'] }],
    [['ACCEPTED_REJECTED.png'], { approved: false, rejectionReasons: ['DOCUMENT_UNREADABLE'] }],
    [['plain.png', 'scan_ACCEPTED.pdf'], { approved: true, rejectionReasons: [] }],
    // No trigger: staff decide, as in live mode. Lower case does not trigger.
    [['student-id.png'], undefined],
    [['accepted.png', 'rejected.pdf'], undefined],
    [[], undefined],
  ])('%j -> %j', (names, expected) => {
    expect(testModeDecision(names)).toEqual(expected);
  });
});
