/**
 * A person signing in at the test provider (oidc-provider's development interactions) with plain HTTP, as a
 * browser would: follows the redirects by hand, keeps the provider's cookies, posts the sign-in form (any
 * password) and the consent form, and stops at the redirect to `redirectUri`, whose URL it answers (the
 * callback with code, state and iss, never requested).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  redirectUri: string,
): Promise<string> {
  const cookies = new Map<string, string>();
  let next: { url: string; form?: Record<string, string> } = { url: authorizationUrl };
  for (let step = 0; step < 20; step += 1) {
    const res = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: next.form && new URLSearchParams(next.form).toString(),
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = res.headers.get('location');
    if (location) {
      const url = new URL(location, next.url).href;
      if (url.startsWith(`${redirectUri}?`)) return url;
      next = { url };
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (res.status !== 200 || !action || !prompt)
      throw new Error(`the provider answered ${res.status} at ${next.url}: ${page.slice(0, 500)}`);
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    next = { url: new URL(action.replace(/&amp;/g, '&'), next.url).href, form };
  }
  throw new Error('the provider never sent the browser back');
}
