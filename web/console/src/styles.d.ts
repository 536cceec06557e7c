// Stylesheets are bundled by esbuild (build.mjs) into the page's one CSS asset.
declare module '*.css';
