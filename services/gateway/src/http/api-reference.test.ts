import { get } from 'node:http';
import { runInNewContext } from 'node:vm';
import { API_REFERENCE_CSP } from './api-reference';
import { DOCUMENT_URL, INITIALIZER } from './api-reference.page';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';

// The API reference at /rest/v2/docs/ as mountRest mounts it: a page of ours, same-origin assets only, under a
// CSP that allows nothing else, rendering the served OpenAPI document.
let app: TestRestApp;
let pageUrl: string;
let html: string;

beforeAll(async () => {
  app = await startTestRestApp();
  pageUrl = `${app.origin}/rest/v2/docs/`;
  html = await (await fetch(pageUrl)).text();
});
afterAll(() => app.close());

/** The status of a GET of `target` sent verbatim. */
function rawStatus(target: string): Promise<number | undefined> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    get({ hostname, port, path: target }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
}

/** The src/href of every script and link tag of the page. */
function references(page: string): string[] {
  return [...page.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"/g)].map((m) => m[1] as string);
}

describe('GET /rest/v2/docs/', () => {
  it('answers the page, as HTML, under the CSP, without a token', async () => {
    const res = await fetch(pageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(API_REFERENCE_CSP);
    expect(API_REFERENCE_CSP).toMatch(/^default-src 'self';/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('has no inline script or style, and references relative, same-origin URLs only', () => {
    expect(html).not.toMatch(/<script\b[^>]*>\s*[^<\s]/);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    const refs = references(html);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/\//i);
      expect(new URL(ref, pageUrl).origin).toBe(app.origin);
    }
  });

  it('answers each referenced asset with its content type, a body and a long cache lifetime', async () => {
    const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png/ };
    for (const ref of references(html)) {
      const url = new URL(ref, pageUrl);
      expect(url.pathname).toMatch(/^\/rest\/v2\/docs\/assets\//);
      const res = await fetch(url);
      expect([url.pathname, res.status]).toEqual([url.pathname, 200]);
      expect(res.headers.get('content-type')).toMatch(
        types[url.pathname.split('.').pop() as string] as RegExp,
      );
      expect(res.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
      expect(res.headers.get('content-security-policy')).toBe(API_REFERENCE_CSP);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('loads the scripts of swagger-ui and the initializer, which loads the served document', async () => {
    const scripts = references(html).filter((ref) => ref.endsWith('.js'));
    expect(scripts.map((s) => s.split('/').pop())).toEqual(['swagger-ui-bundle.js', 'api-reference.js']);
    const initializer = await (await fetch(new URL(scripts[1] as string, pageUrl))).text();
    expect(initializer).toContain(`new URL(${JSON.stringify(DOCUMENT_URL)}, document.baseURI)`);
    expect(initializer).toContain('SwaggerUIBundle(');
    const documentUrl = new URL(DOCUMENT_URL, pageUrl);
    expect(documentUrl.href).toBe(`${app.origin}/rest/v2/openapi.json`);
    const res = await fetch(documentUrl);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await fetch(pageUrl, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe('');
  });
});

describe('GET /rest/v2/docs', () => {
  it('redirects to docs/, where the relative URLs of the page resolve', async () => {
    const res = await fetch(`${app.origin}/rest/v2/docs?x=1`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('docs/');
    expect(new URL('docs/', `${app.origin}/rest/v2/docs`).href).toBe(pageUrl);
  });
});

describe('other requests', () => {
  it('answers OPTIONS with what is allowed, and other methods 405', async () => {
    const asset = new URL(references(html)[0] as string, pageUrl);
    for (const url of [pageUrl, `${app.origin}/rest/v2/docs`, asset.href]) {
      const options = await fetch(url, { method: 'OPTIONS' });
      expect([url, options.status, options.headers.get('allow')]).toEqual([url, 204, 'GET, HEAD, OPTIONS']);
      const post = await fetch(url, { method: 'POST' });
      expect([url, post.status, post.headers.get('allow')]).toEqual([url, 405, 'GET, HEAD, OPTIONS']);
    }
  });

  it.each([
    'assets/unknown.js',
    'assets/swagger-ui-bundle.js',
    'assets/0.0.0-00000000/swagger-ui-bundle.js',
    'assets/TAG/index.js',
    'assets/TAG/package.json',
    'assets/TAG/..%2fpackage.json',
    'assets/TAG/..%2F..%2F..%2Fpackage.json',
    'assets/TAG/%2e%2e%2fpackage.json',
    'assets/TAG/..%5cpackage.json',
    'assets/..%2fpackage.json',
    'assets/TAG/../package.json',
    'assets/TAG/swagger-ui-bundle.js.map',
    'assets/TAG/swagger-ui-bundle.js%00',
    'assets/%2e%2e/%2e%2e/package.json',
  ])('answers 404 for %s', async (path) => {
    const tag = (references(html)[0] as string).split('/')[1] as string;
    // As sent (fetch would resolve the dot segments first).
    const target = `/rest/v2/docs/${path.replace('TAG', tag)}`;
    expect([target, await rawStatus(target)]).toEqual([target, 404]);
  });

  it('is not an operation of the OpenAPI document, whose description names it', async () => {
    const document = (await (await fetch(`${app.origin}/rest/v2/openapi.json`)).json()) as {
      info: { description: string };
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths).filter((p) => p.startsWith('/docs'))).toEqual([]);
    expect(document.info.description).toContain('https://eligo.example.com/rest/v2/docs/');
  });
});

describe('the initializer', () => {
  /** Runs it as the page at `page` would, against `spec`; what it fetched and gave swagger-ui. */
  async function initialize(page: string, spec: unknown) {
    const fetched: string[] = [];
    let config: Record<string, unknown> | undefined;
    const SwaggerUIBundle = Object.assign(
      (c: Record<string, unknown>) => {
        config = c;
        return {};
      },
      { presets: { apis: 'apis' } },
    );
    const root = { textContent: '' };
    const window = { location: new URL(page) };
    await runInNewContext(INITIALIZER.replace(/;\s*$/, ''), {
      URL,
      window,
      SwaggerUIBundle,
      document: { baseURI: page, getElementById: () => root },
      fetch: async (url: URL) => {
        fetched.push(url.href);
        return { ok: true, json: async () => spec };
      },
    });
    return { fetched, config, root };
  }

  it("renders the document of the page's API, with try it out where its servers are the page's origin", async () => {
    const spec = {
      servers: [{ url: 'https://api.example.com/prefix/rest/v2' }],
      paths: { '/x': { servers: [{ url: 'https://api.example.com/prefix/rest/admin/v1' }] } },
    };
    const { fetched, config } = await initialize('https://api.example.com/prefix/rest/v2/docs/', spec);
    expect(fetched).toEqual(['https://api.example.com/prefix/rest/v2/openapi.json']);
    expect(config).toMatchObject({ spec, queryConfigEnabled: false, validatorUrl: null });
    expect(config?.supportedSubmitMethods).toEqual(['get', 'put', 'post', 'delete', 'patch']);
  });

  it.each([
    ['its servers', { servers: [{ url: 'https://other.example.com/rest/v2' }], paths: {} }],
    ["a path item's servers", { paths: { '/x': { servers: [{ url: 'http://api.example.com/rest/v2' }] } } }],
  ])('turns try it out off where %s are another origin', async (_, spec) => {
    const { config } = await initialize('https://api.example.com/rest/v2/docs/', spec);
    expect(config?.supportedSubmitMethods).toEqual([]);
  });

  it('says so when the document does not load', async () => {
    const root = { textContent: '' };
    await runInNewContext(INITIALIZER.replace(/;\s*$/, ''), {
      URL,
      window: {},
      document: { baseURI: 'https://api.example.com/rest/v2/docs/', getElementById: () => root },
      fetch: async () => ({ ok: false, status: 503 }),
    });
    expect(root.textContent).toBe(
      'Could not load the OpenAPI document https://api.example.com/rest/v2/openapi.json: HTTP 503',
    );
  });
});
