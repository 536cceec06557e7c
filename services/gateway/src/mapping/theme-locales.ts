type Texts = { messages: Record<string, string>; errorId: Record<string, string> };

/** A theme's translations, copied (JSON and proto's LocaleMessages have one shape). */
export function copyLocales(locales: Record<string, Partial<Texts>> | undefined): Record<string, Texts> {
  return Object.fromEntries(
    Object.entries(locales ?? {}).map(([tag, texts]) => [
      tag,
      { messages: { ...texts.messages }, errorId: { ...texts.errorId } },
    ]),
  );
}
