// Builds the staff console into dist/: content-hashed assets (the gateway serves them for a year, immutable)
// and manifest.json naming them. Fails when the console's JavaScript and CSS together exceed the budget
// gzipped (docs/architecture.md, "Web pages").
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'dist');
const BUDGET_GZIP_BYTES = 150 * 1024;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: { console: join(here, 'src/main.tsx') },
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  format: 'iife',
  jsx: 'automatic',
  jsxImportSource: 'preact',
});

const outputs = Object.keys(result.metafile.outputs).map((f) => basename(f));
const script = outputs.find((f) => f.endsWith('.js'));
const stylesheet = outputs.find((f) => f.endsWith('.css'));
if (!script || !stylesheet) throw new Error(`expected a script and a stylesheet, got ${outputs.join(', ')}`);

const gzipped = (file) => gzipSync(readFileSync(file)).length;
const sizes = {
  script: gzipped(join(out, 'assets', script)),
  stylesheet: gzipped(join(out, 'assets', stylesheet)),
};
const total = sizes.script + sizes.stylesheet;
writeFileSync(
  join(out, 'manifest.json'),
  `${JSON.stringify({ script, stylesheet, gzipBytes: { ...sizes, total } }, null, 2)}\n`,
);
console.log(
  `console: ${script} + ${stylesheet}, ${(total / 1024).toFixed(1)} kB gzipped (budget ${BUDGET_GZIP_BYTES / 1024} kB)`,
);
if (total > BUDGET_GZIP_BYTES) {
  console.error(
    `the console's JavaScript and CSS are ${total} bytes gzipped, over the budget of ${BUDGET_GZIP_BYTES}`,
  );
  process.exit(1);
}
