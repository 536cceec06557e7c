// The test files that `npm test` (scripts/test.mjs) runs beside the other packages' tests instead of after
// them. They are the longest of @eligo/test (Schemathesis ~8 min, the chart tests ~4 min with Helm's first
// build) and need no other suite: on two cores the packages' tests (one jest worker) leave a core for them,
// and the run stays within CI's 45 minutes. `npm test` inside test/ still runs every file.
module.exports = {
  beside: ['e2e/schemathesis.e2e.test.ts', 'e2e/helm-chart.test.ts', 'e2e/helm-run.test.ts'],
};
