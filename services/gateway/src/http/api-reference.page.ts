/**
 * The files of our own that the API reference at /rest/v2/docs/ serves beside swagger-ui's: the page, its
 * initializer and a stylesheet. Nothing here is inline in the page, so that it runs under `default-src 'self'`.
 */

/** The page; `assets` is the relative path of the asset directory (versioned, so the assets cache for long). */
export function apiReferencePage(assets: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Eligo REST API reference</title>
    <link rel="stylesheet" href="${assets}/swagger-ui.css">
    <link rel="stylesheet" href="${assets}/api-reference.css">
    <link rel="icon" type="image/png" sizes="32x32" href="${assets}/favicon-32x32.png">
  </head>
  <body>
    <noscript>This page needs JavaScript. The OpenAPI document is at <a href="../openapi.json">../openapi.json</a>.</noscript>
    <div id="swagger-ui"></div>
    <script src="${assets}/swagger-ui-bundle.js"></script>
    <script src="${assets}/api-reference.js"></script>
  </body>
</html>
`;
}

/** Where the initializer reads the document: relative to the page, so it holds behind a path prefix too. */
export const DOCUMENT_URL = '../openapi.json';

/**
 * Loads the document and renders it. Try it out only where every server of the document is this page's origin
 * (the API answers no CORS, and the CSP allows no other origin); elsewhere the reference is read-only.
 */
export const INITIALIZER = `'use strict';
(async () => {
  const root = document.getElementById('swagger-ui');
  const documentUrl = new URL(${JSON.stringify(DOCUMENT_URL)}, document.baseURI);
  let spec;
  try {
    const res = await fetch(documentUrl, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    spec = await res.json();
  } catch (err) {
    root.textContent = 'Could not load the OpenAPI document ' + documentUrl.href + ': ' + err.message;
    return;
  }
  const servers = [spec.servers || [], ...Object.values(spec.paths || {}).map((item) => item.servers || [])];
  const sameOrigin = servers.flat().every((server) => {
    try {
      return new URL(server.url, documentUrl).origin === window.location.origin;
    } catch {
      return false;
    }
  });
  window.ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    deepLinking: true,
    queryConfigEnabled: false,
    validatorUrl: null,
    supportedSubmitMethods: sameOrigin ? ['get', 'put', 'post', 'delete', 'patch'] : [],
  });
})();
`;

export const STYLESHEET = `html {
  box-sizing: border-box;
  overflow-y: scroll;
}
*,
*::before,
*::after {
  box-sizing: inherit;
}
body {
  margin: 0;
  background: #fafafa;
}
`;
