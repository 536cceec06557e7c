// Builds the hosted verification page into dist/ (web/shared/build.mjs: content-hashed assets, manifest.json)
// with its embed script. Fails when the page's JavaScript and CSS together exceed the budget gzipped: the page
// is what a person on a phone waits for (docs/architecture.md, "Web pages").
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage, bundleOptions } from '../shared/build.mjs';

const here = dirname(fileURLToPath(import.meta.url));

await buildPage({
  build,
  dir: here,
  entry: { verify: 'src/main.tsx' },
  budgetBytes: 100 * 1024,
  label: 'verify page',
  whose: "the page's",
  // The embed script keeps its name: merchants include /verify/embed.js.
  async more(out) {
    await build({
      ...bundleOptions,
      entryPoints: [join(here, 'src/embed/embed.ts')],
      outfile: join(out, 'embed.js'),
      format: 'iife',
    });
    return { embed: 'embed.js' };
  },
});
