import { sanitizeCustomCss } from './custom-css';

describe('sanitizeCustomCss', () => {
  it('keeps rules, media and support conditions and keyframes', () => {
    const css =
      '.card{border-radius:12px;color:#123}@media (min-width:40rem){h1{font-size:2rem}}' +
      '@supports (display:grid){.actions{display:grid}}@keyframes pulse{from{opacity:0}to{opacity:1}}';
    expect(sanitizeCustomCss(css)).toBe(css);
  });

  it.each([
    ['@import', '@import url("https://evil.example/x.css");.a{color:red}', '.a{color:red}'],
    [
      '@font-face',
      '@font-face{font-family:x;src:url(https://evil.example/f.woff)}.a{color:red}',
      '.a{color:red}',
    ],
    ['@namespace', '@namespace svg url(http://www.w3.org/2000/svg);.a{color:red}', '.a{color:red}'],
    ['url()', '.a{background:url(https://tracker.example/p.gif);color:red}', '.a{color:red}'],
    ['a quoted url()', '.a{background-image:url("//tracker.example/p");color:red}', '.a{color:red}'],
    ['an escaped url()', '.a{background:u\\72l(https://tracker.example/p);color:red}', '.a{color:red}'],
    ['image-set()', '.a{background:image-set("x.png" 1x);color:red}', '.a{color:red}'],
    ['expression()', '.a{width:expression(alert(1));color:red}', '.a{color:red}'],
    ['behavior', '.a{behavior:url(x.htc);color:red}', '.a{color:red}'],
    ['-moz-binding', '.a{-moz-binding:url(x.xml#x);color:red}', '.a{color:red}'],
    [
      'url() inside @media',
      '@media print{.a{background:url(x.png);color:red}}',
      '@media print{.a{color:red}}',
    ],
  ])('drops %s and keeps the rest', (_what, css, expected) => {
    expect(sanitizeCustomCss(css)).toBe(expected);
  });

  it('drops what it cannot parse instead of passing it on', () => {
    const out = sanitizeCustomCss('.a{color:red}} garbage { { .b{color:blue}');
    expect(out).toContain('.a{color:red}');
    expect(out).not.toContain('garbage');
  });

  it('answers empty for an empty theme', () => {
    expect(sanitizeCustomCss('   ')).toBe('');
  });
});
