// Builds the staff console into dist/ (web/shared/build.mjs: content-hashed assets, manifest.json). Fails when
// the console's JavaScript and CSS together exceed the budget gzipped (docs/architecture.md, "Web pages").
import { build } from 'esbuild';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage } from '../shared/build.mjs';

await buildPage({
  build,
  dir: dirname(fileURLToPath(import.meta.url)),
  entry: { console: 'src/main.tsx' },
  budgetBytes: 150 * 1024,
  label: 'console',
  whose: "the console's",
});
