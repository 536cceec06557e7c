import { claimText, failureText } from './words';

const failure = (status: number, errorIds: string[] = [], message = '') => ({ status, errorIds, message });

describe('failureText', () => {
  it("names the member's role on a refusal of the role", () => {
    expect(
      failureText(
        failure(403, ['insufficientRole'], 'The staff role reviewer may not call adminListPrograms'),
        'reviewer',
        'list the programs',
      ),
    ).toBe('Your role (reviewer) may not list the programs. Ask an admin if you need to.');
  });

  it('says what else happened in plain words', () => {
    expect(failureText(failure(0), 'admin', 'x')).toBe(
      'Eligo could not be reached. Check the connection and try again.',
    );
    expect(failureText(failure(401), 'admin', 'x')).toBe('Your session ended. Sign in again.');
    expect(
      failureText(failure(403, ['invalidRequest'], 'Missing X-CSRF-Token'), 'admin', 'save the program'),
    ).toBe('Eligo refused to save the program (Missing X-CSRF-Token). Reload the page and try again.');
    expect(failureText(failure(409, ['reviewClaimed'], 'Claimed'), 'reviewer', 'decide this review')).toBe(
      'Eligo could not decide this review: Claimed.',
    );
    expect(failureText(failure(400, ['invalidRequest'], 'name: too long'), 'admin', 'save the program')).toBe(
      'Eligo could not save the program: name: too long.',
    );
    expect(failureText(failure(503), 'admin', 'list the staff')).toBe(
      'Eligo could not list the staff (status 503).',
    );
  });
});

describe('claimText', () => {
  it("tells the member's own claim from another's", () => {
    const me = 'ab'.repeat(12);
    expect(claimText(null, me)).toBe('');
    expect(claimText(`staff:${me}`, me)).toBe('Claimed by you');
    expect(claimText(`staff:${'cd'.repeat(12)}`, me)).toBe('Claimed by someone else');
    expect(claimText('operator', me)).toBe('Claimed by someone else');
  });
});
