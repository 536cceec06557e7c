/**
 * How a refusal names a field: as it appears in the body, from a JSON pointer (endpoints/body-check.ts).
 */
/** "/theme/intl/messages/a.b" -> body.theme.intl.messages["a.b"]; "/codes/3" -> body.codes[3]. */
export function fieldPath(instancePath: string): string {
  if (!instancePath) return 'body';
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return segments.reduce((path, s) => {
    if (/^\d+$/.test(s)) return `${path}[${s}]`;
    if (/^[A-Za-z_$][\w$]*$/.test(s)) return `${path}.${s}`;
    return `${path}[${JSON.stringify(s)}]`;
  }, 'body');
}
