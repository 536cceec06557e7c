import { expectRejectedInvalid } from '../../test/domain-errors';
import { settings } from '../../test/program-settings';
import { normaliseEmbedOrigins } from './embed-origins';
import { validateProgramSettings } from './program-validation';

/** [entries, normalised, problems]: what normaliseEmbedOrigins returns and reports. */
const check = (input: string[]) => {
  const problems: string[] = [];
  return { origins: normaliseEmbedOrigins(input, (p) => problems.push(p)), problems };
};

describe('normaliseEmbedOrigins', () => {
  it.each<[string, string]>([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['https://shop.example.com:8443', 'https://shop.example.com:8443'],
    ['https://Shop.Example:443', 'https://shop.example'],
    ['HTTPS://SHOP.EXAMPLE', 'https://shop.example'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ['https://192.0.2.10', 'https://192.0.2.10'],
    ['https://[2001:DB8:0:0::1]:8443', 'https://[2001:db8::1]:8443'],
    // Development origins: plain http for the developer's own machine only, in any mode.
    ['http://localhost', 'http://localhost'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://LocalHost:80', 'http://localhost'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://localhost:3000', 'https://localhost:3000'],
  ])('takes %j as %j', (entry, origin) => {
    expect(check([entry])).toEqual({ origins: [origin], problems: [] });
  });

  it('keeps the order given, and takes none', () => {
    expect(check(['https://b.example', 'https://a.example']).origins).toEqual([
      'https://b.example',
      'https://a.example',
    ]);
    expect(check([])).toEqual({ origins: [], problems: [] });
  });

  const wildcard =
    'is a wildcard, which is not allowed in this version: list each origin (https://shop.example.com)';
  const noPath =
    'must not have a path, query or fragment, not even a trailing "/" (an origin is scheme://host[:port])';
  const badHost =
    'must name a host (in ASCII: a host name, an IPv4 address or an [IPv6] address) and at most a port from 1 to 65535';
  const httpsOnly = 'must use https (http only for localhost and 127.0.0.1, for development)';
  const notOrigin = 'is not a web origin (https://host[:port])';
  it.each<[string, string]>([
    ['https://*.example.com', wildcard],
    ['*', wildcard],
    ['https://shop.example.com/', noPath],
    ['https://shop.example.com/checkout', noPath],
    ['https://shop.example.com?x=1', noPath],
    ['https://shop.example.com#top', noPath],
    ['https://user@shop.example.com', 'must not contain a user name or password'],
    ['https://user:pass@shop.example.com', 'must not contain a user name or password'],
    ['http://shop.example.com', httpsOnly],
    ['http://[::1]:3000', httpsOnly],
    ['http://127.0.0.2', httpsOnly],
    ['ftp://shop.example.com', 'must be an https origin (http only for localhost and 127.0.0.1)'],
    ['shop.example.com', notOrigin],
    ['//shop.example.com', notOrigin],
    ['https:shop.example.com', notOrigin],
    ['', notOrigin],
    ['https://', badHost],
    ['https://shop.example.com:', badHost],
    ['https://shop.example.com:0', badHost],
    ['https://shop.example.com:65536', badHost],
    ['https://shop.example.com:0443', badHost],
    ['https://bücher.example', badHost],
    ['https://shop_1.example', badHost],
    ['https://shop.example.', badHost],
    ['https://1.2.3', badHost],
    [' https://shop.example.com', 'must not contain whitespace'],
    ['https://shop.example.com\n', 'must not contain whitespace'],
  ])('refuses %j, naming it', (entry, problem) => {
    expect(check([entry])).toEqual({ origins: [], problems: [`${JSON.stringify(entry)} ${problem}`] });
  });

  it('refuses an entry over 255 characters, quoting only its start', () => {
    const entry = `https://${'a'.repeat(240)}.example`; // 256 characters
    const fits = `https://${'a'.repeat(239)}.example`; // 255 characters
    expect(check([fits]).problems).toEqual([]);
    expect(check([entry]).problems).toEqual([
      `${JSON.stringify(`${entry.slice(0, 80)}…`)} must be at most 255 characters`,
    ]);
  });

  it('refuses an origin listed twice, also in two spellings of one origin', () => {
    expect(check(['https://a.example', 'https://a.example']).problems).toEqual([
      'https://a.example is listed twice',
    ]);
    expect(check(['https://shop.example', 'https://SHOP.example:443']).problems).toEqual([
      'https://shop.example is listed twice',
    ]);
    // A port other than the default is another origin.
    expect(check(['https://shop.example', 'https://shop.example:8443']).problems).toEqual([]);
  });

  it('accepts at most 20 entries', () => {
    const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://shop${i}.example`);
    expect(check(origins(20)).problems).toEqual([]);
    expect(check(origins(21)).problems).toEqual(['at most 20 origins']);
  });
});

describe('validateProgramSettings: embedOrigins', () => {
  it('stores them normalised, and none by default', async () => {
    expect((await validateProgramSettings(settings())).embedOrigins).toEqual([]);
    const out = await validateProgramSettings(
      settings({ embedOrigins: ['https://Shop.Example:443', 'http://127.0.0.1:5173'] }),
    );
    expect(out.embedOrigins).toEqual(['https://shop.example', 'http://127.0.0.1:5173']);
  });

  it('reports each bad entry under embedOrigins, with the other problems', async () => {
    await expectRejectedInvalid(
      validateProgramSettings(
        settings({
          name: '',
          embedOrigins: [
            'https://shop.example/',
            'https://*.example.com',
            'https://a.example',
            'https://A.example',
          ],
        }),
      ),
      'name: is required; ' +
        'embedOrigins: "https://shop.example/" must not have a path, query or fragment, not even a trailing "/" ' +
        '(an origin is scheme://host[:port]); ' +
        'embedOrigins: "https://*.example.com" is a wildcard, which is not allowed in this version: list each ' +
        'origin (https://shop.example.com); ' +
        'embedOrigins: https://a.example is listed twice',
    );
  });
});
