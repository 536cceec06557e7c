/**
 * The import rules of the codebase (docs/architecture.md, "The service template"), checked by `npm test`
 * (`npm run lint:imports`). A workspace package resolves to its built entry (dist/), so a rule about another
 * package names its directory, whatever file of it is reached.
 * dependency-cruiser is pinned to its 17 line: 18 needs Node 22.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SERVICES = '^services/';
const OURS = '^(packages|services|proto|deploy)/';
// Test code may start another service's module as a real dependency (its `definition`), nothing else of it.
const TEST_CODE = '(^services/[^/]+/test/|[.]test[.]ts$)';

module.exports = {
  forbidden: [
    {
      name: 'no-service-imports-another-service',
      comment:
        'A service reaches another over gRPC or events only. Shared words live in @eligo/vocabulary or the proto contracts.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: TEST_CODE },
      to: { path: SERVICES, pathNot: '^services/$1/' },
    },
    {
      name: 'tests-import-only-module-definitions',
      comment:
        "A test may import another service's package entry (to start its module), never its internals.",
      severity: 'error',
      from: { path: '^services/([^/]+)/(test/|.*[.]test[.]ts$)' },
      to: { path: SERVICES, pathNot: ['^services/[^/]+/dist/src/index[.]js$', '^services/$1/'] },
    },
    {
      name: 'gateway-imports-no-service',
      comment: 'The gateway speaks to the services through their gRPC clients (@eligo/proto) only.',
      severity: 'error',
      from: { path: '^services/gateway/' },
      to: { path: SERVICES, pathNot: '^services/gateway/' },
    },
    {
      name: 'runtime-knows-no-service',
      comment: 'The runtime hosts modules; which modules exist is the CLI registry’s business.',
      severity: 'error',
      from: { path: '^packages/runtime/' },
      to: { path: `${SERVICES}|^packages/(cli|vocabulary)/` },
    },
    {
      name: 'vocabulary-imports-nothing-of-ours',
      comment:
        'Any process can take the shared words without taking a service, the runtime or the contracts.',
      severity: 'error',
      from: { path: '^packages/vocabulary/' },
      to: { path: OURS, pathNot: '^packages/vocabulary/' },
    },
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and modules inseparable.',
      severity: 'error',
      from: { path: OURS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '/dist/'] },
    exclude: { path: ['(^|/)node_modules/', '^proto/src/gen/'] },
    // Type-only imports count: a circle of types still ties modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'] },
  },
};
