// The test files that `npm test` (scripts/test.mjs) runs beside the other packages' tests instead of after
// them. They are the longest of @eligo/test (Schemathesis ~8 min, the chart tests ~2 min, the browser tests
// ~2.5 min) and need no other suite: on two cores the packages' tests (one jest worker) leave a core for them,
// and the run stays within CI's 45 minutes. The packages' tests still take the longer lane (about 25 minutes
// against 12 in CI), so a long file moves here rather than there. `npm test` inside test/ still runs every file.
module.exports = {
  beside: [
    'e2e/schemathesis.e2e.test.ts',
    'e2e/helm-chart.test.ts',
    'e2e/helm-run.test.ts',
    'browser/verify-page.test.ts',
    'browser/api-reference.test.ts',
    'browser/console.test.ts',
    'browser/console-oidc.test.ts',
    'browser/kit.test.ts',
  ],
};
