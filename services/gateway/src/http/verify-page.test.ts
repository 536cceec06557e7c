import { status as GrpcStatus } from '@grpc/grpc-js';
import { standIn } from '../../test/stand-in';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import type { ProgramsClient } from '../clients/programs.client';
import { verifyPageCsp } from './verify-page';

// The hosted verification page as mountRest mounts it: a shell under a strict CSP, the build's assets, the
// program's sanitized CSS and the embed script; the program's texts come with the page (its theme endpoint
// needs a token).
const programId = '0123456789abcdef01234567';
const unknownProgram = 'fedcba9876543210fedcba98';
const embeddable = 'aaaaaaaaaaaaaaaaaaaaaaaa';
let app: TestRestApp;
const asked: { programId: string; accountId: string }[] = [];

beforeAll(async () => {
  app = await startTestRestApp({
    programs: standIn<ProgramsClient>('programs', {
      getProgram: async (req: { programId: string }) => {
        if (req.programId === unknownProgram)
          throw Object.assign(new Error('no program'), { code: GrpcStatus.NOT_FOUND });
        return {
          program: {
            programId: req.programId,
            embedOrigins:
              req.programId === embeddable ? ['https://shop.example', 'http://localhost:3000'] : [],
          },
        };
      },
      getTheme: async (req: { programId: string; accountId: string }) => {
        asked.push(req);
        if (req.programId === unknownProgram)
          throw Object.assign(new Error('no program'), { code: GrpcStatus.NOT_FOUND });
        return {
          theme: {
            intl: {
              locale: 'fr-FR',
              messages: { 'page.title': 'Vérifiez </title><script>alert(1)</script>', x: '</script><b>' },
              errorId: { noProgram: 'Programme inconnu' },
            },
            customCss: '.card{border-radius:0}.a{background:url(https://tracker.example/p.gif)}',
          },
        };
      },
    }),
  });
});
afterAll(() => app.close());

const get = (path: string) => fetch(`${app.origin}${path}`);
const assetsOf = (html: string) =>
  [...html.matchAll(/(?:src|href)="(\/verify\/assets\/[^"]+)"/g)].map((m) => m[1] as string);

describe('GET /verify/{programId}', () => {
  it('answers the shell under a CSP without inline script, framed by nobody by default', async () => {
    const res = await get(`/verify/${programId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(verifyPageCsp([]));
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('<html lang="fr-FR">');
    expect(html).toContain(`<link rel="stylesheet" href="/verify/${programId}/theme.css">`);
    expect(assetsOf(html)).toHaveLength(2);
    // The only script elements: the bundle (src) and a JSON data block, which a CSP never runs.
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!.trim());
    expect(scripts).toEqual([
      expect.stringMatching(/^type="application\/json" id="eligo-bootstrap"$/),
      expect.stringMatching(/^src="\/verify\/assets\/verify-[A-Z0-9]+\.js" defer$/),
    ]);
    expect(asked.at(-1)).toEqual({ programId, accountId: '' });
  });

  it("may be framed by the program's embedding origins only", async () => {
    const res = await get(`/verify/${embeddable}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://shop.example http://localhost:3000',
    );
  });

  it("carries the program's texts in a data block that no value can close, and escapes the title", async () => {
    const html = await (await get(`/verify/${programId}/`)).text();
    const block = /<script type="application\/json" id="eligo-bootstrap">(.*?)<\/script>/s.exec(html)![1]!;
    expect(block).not.toContain('<');
    const data = JSON.parse(block) as { programId: string; intl: { messages: Record<string, string> } };
    expect(data.programId).toBe(programId);
    expect(data.intl.messages.x).toBe('</script><b>');
    expect(html).toContain(
      '<title>Vérifiez &#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>',
    );
  });

  it.each([
    ['a malformed program id', '/verify/not-a-program'],
    ['an unknown program', `/verify/${unknownProgram}`],
    ['an unknown path', `/verify/${programId}/elsewhere`],
  ])('answers 404 for %s', async (_what, path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('the assets', () => {
  it('serves the two assets of the build, immutable, and nothing else by name', async () => {
    const html = await (await get(`/verify/${programId}`)).text();
    for (const path of assetsOf(html)) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(
        path.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/,
      );
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    for (const path of [
      '/verify/assets/manifest.json',
      '/verify/assets/..%2Fmanifest.json',
      '/verify/assets/x.js',
    ])
      expect((await get(path)).status).toBe(404);
  });

  it("serves the program's customCss sanitized: nothing that loads a resource", async () => {
    const res = await get(`/verify/${programId}/theme.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await res.text()).toBe('.card{border-radius:0}.a{}');
    expect((await get(`/verify/${unknownProgram}/theme.css`)).status).toBe(404);
  });

  it('serves the embed script to any page (cross-origin resource policy), not cached for long', async () => {
    const res = await get('/verify/embed.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.text()).toContain('loadInModal');
  });
});
