// What every page under web/ builds the same way (web/verify/build.mjs and web/console/build.mjs import it):
// one entry bundled by esbuild into a content-hashed script and stylesheet (the gateway serves them for a
// year, immutable), manifest.json naming them, and the gzip budget of the two together (docs/architecture.md,
// "Web pages"). Not a workspace package: each page's build.mjs passes its own esbuild (its devDependency), and
// each page's turbo.json counts this file among its build inputs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The esbuild options of every bundle of a page. */
export const bundleOptions = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
};

/**
 * Builds a page into `dir`/dist and exits with 1 when its JavaScript and CSS exceed `budgetBytes` gzipped.
 * `entry` names the bundle ({ name: path from dir }); `more(out)` builds what else the page serves into `out`
 * and answers the manifest's entries for it; `label` starts the size line, `whose` the over-budget error.
 */
export async function buildPage({ build, dir, entry, budgetBytes, label, whose, more }) {
  const out = join(dir, 'dist');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });

  const page = await build({
    ...bundleOptions,
    entryPoints: Object.fromEntries(Object.entries(entry).map(([name, path]) => [name, join(dir, path)])),
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'preact',
  });
  const extra = more ? await more(out) : {};

  const outputs = Object.keys(page.metafile.outputs).map((f) => basename(f));
  const script = outputs.find((f) => f.endsWith('.js'));
  const stylesheet = outputs.find((f) => f.endsWith('.css'));
  if (!script || !stylesheet)
    throw new Error(`expected a script and a stylesheet, got ${outputs.join(', ')}`);

  const gzipped = (file) => gzipSync(readFileSync(file)).length;
  const sizes = {
    script: gzipped(join(out, 'assets', script)),
    stylesheet: gzipped(join(out, 'assets', stylesheet)),
  };
  const total = sizes.script + sizes.stylesheet;
  writeFileSync(
    join(out, 'manifest.json'),
    `${JSON.stringify({ script, stylesheet, ...extra, gzipBytes: { ...sizes, total } }, null, 2)}\n`,
  );
  console.log(
    `${label}: ${script} + ${stylesheet}, ${(total / 1024).toFixed(1)} kB gzipped (budget ${budgetBytes / 1024} kB)`,
  );
  if (total > budgetBytes) {
    console.error(
      `${whose} JavaScript and CSS are ${total} bytes gzipped, over the budget of ${budgetBytes}`,
    );
    process.exit(1);
  }
}
