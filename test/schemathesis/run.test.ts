import { failureDigest } from './run';

// The output of the pinned Schemathesis (4.32.5) against a two-operation server whose POST answers 500,
// shortened where marked.
const output = `Schemathesis v4.32.5
━━━━━━━━━━━━━━━━━━━━

 ❌  Fuzzing (in 0.12s)

     ✅ 1 passed  ❌ 1 failed

=================================== FAILURES ===================================
__________________________________ POST /boom __________________________________
1. Test Case ID: T8JaRP

- ST101 Server error

- ST103 Undocumented status code

    Received: 500
    Documented: 200

[500] Internal Server Error:

    \`x\`

Reproduce with:

    curl -X POST http://127.0.0.1:45111/boom

    st replay T8JaRP

_________________________________ TRACE /fine __________________________________
1. Test Case ID: 1XjayU

- ST204 Wrong response to undeclared method

    Unsupported method TRACE returned 200, expected 405 Method Not Allowed

Reproduce with:

    curl -X TRACE http://127.0.0.1:45111/fine

=================================== SUMMARY ====================================

Failures:
  ❌ ST101 Server error: 1
  ❌ ST103 Undocumented status code: 1
  ❌ ST204 Wrong response to undeclared method: 1

Test cases:
  4 generated, 2 found 3 unique failures

Seed: 42

============================= 3 failures in 1.59s ==============================
`;

it('digests a failed run into its seed, each failing operation with its checks and curl, and the counts', () => {
  expect(failureDigest(output, '42')).toBe(
    [
      'seed 42 (ELIGO_SCHEMATHESIS_SEED=42 replays it)',
      'POST /boom',
      '  - ST101 Server error',
      '  - ST103 Undocumented status code',
      '    curl -X POST http://127.0.0.1:45111/boom',
      'TRACE /fine',
      '  - ST204 Wrong response to undeclared method',
      '    curl -X TRACE http://127.0.0.1:45111/fine',
      '❌ ST101 Server error: 1',
      '❌ ST103 Undocumented status code: 1',
      '❌ ST204 Wrong response to undeclared method: 1',
    ].join('\n'),
  );
});

it('is only the seed for a run that printed no failure section', () => {
  expect(failureDigest('Schemathesis v4.32.5\n[killed after 1200000 ms]\n', '7')).toBe(
    'seed 7 (ELIGO_SCHEMATHESIS_SEED=7 replays it)',
  );
});
