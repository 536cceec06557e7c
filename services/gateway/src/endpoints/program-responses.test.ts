import { programsProgramV1 } from '@eligo/proto';
import { programToJson, themeToJson } from '../mapping/program';
import { changedOnPurpose, documentBefore, plain } from '../../test/document-before';
import { endpointDocument } from './openapi';
import { ProgramConfiguration, programResponseSchemas, Theme } from './program-responses';

const names = [
  'OrganizationRules',
  'ProgramConfiguration',
  'RewardCodesAdded',
  'Theme',
  'VerificationLimit',
  'Webhook',
];

describe('the program response schemas', () => {
  const { schemas } = endpointDocument([], 'https://eligo.test', programResponseSchemas);

  it.each(names.filter((name) => !(name in changedOnPurpose)))(
    'state %s as the hand-written schema did',
    (name) => {
      // As the hand-written document stated them (openapi/schemas/program.ts), before endpoints/.
      expect(plain(schemas[name])).toEqual(documentBefore.components.schemas[name]);
    },
  );

  // Changed on purpose since the capture (test/document-before.ts): the embedOrigins and instantMatch settings.
  it('state ProgramConfiguration as before, with embedOrigins and instantMatch, required, before created and updated', () => {
    type Statement = { properties: Record<string, unknown>; required: string[] };
    const now = plain(schemas.ProgramConfiguration) as Statement;
    const before = documentBefore.components.schemas.ProgramConfiguration as Statement;
    const { embedOrigins, instantMatch, ...others } = now.properties;
    expect(instantMatch).toMatchObject({
      type: 'object',
      required: ['sources', 'http', 'emailLoop'],
      description: expect.stringContaining('its secret is never answered'),
    });
    expect(embedOrigins).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: expect.stringContaining('[] when none'),
    });
    expect({
      ...now,
      properties: others,
      required: now.required.filter((p) => p !== 'embedOrigins' && p !== 'instantMatch'),
    }).toEqual(before);
    expect(now.required.slice(-4)).toEqual(['embedOrigins', 'instantMatch', 'created', 'updated']);
  });

  it('name exactly those components', () => {
    expect(Object.keys(schemas).sort()).toEqual(names);
  });

  it('take what the mapping answers, a webhook and a limit included', () => {
    const { Program, ProgramMode, WebhookNotification } = programsProgramV1;
    const program = Program.fromPartial({
      programId: 'ab'.repeat(12),
      accountId: 'cd'.repeat(12),
      name: 'Spring',
      segment: 'student',
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      startDate: new Date('2030-01-15T00:00:00.000Z'),
      minAge: 18,
      webhook: {
        callbackUri: 'https://hooks.example/x',
        createdAt: new Date(1_700_000_000_000),
        notifications: [WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION],
      },
      verificationLimit: { quantity: 2, days: 30 },
      theme: { intl: { locale: 'en-US', messages: { title: 'Hi' } } },
      embedOrigins: ['https://shop.example', 'http://localhost:3000'],
    });
    expect(ProgramConfiguration.safeParse(programToJson(program, 'whsec_1')).error).toBeUndefined();
    const bare = Program.fromPartial({ programId: 'ab'.repeat(12), accountId: 'cd'.repeat(12) });
    expect(ProgramConfiguration.safeParse(programToJson(bare)).error).toBeUndefined();
    expect(Theme.safeParse(themeToJson(undefined)).error).toBeUndefined();
  });

  it('refuse what the document refuses: a fractional count, a missing field', () => {
    const json = programToJson(
      programsProgramV1.Program.fromPartial({ programId: 'ab'.repeat(12), accountId: 'cd'.repeat(12) }),
    );
    expect(ProgramConfiguration.safeParse(json).success).toBe(true);
    expect(ProgramConfiguration.safeParse({ ...json, maxRejections: 1.5 }).success).toBe(false);
    const { theme: _theme, ...withoutTheme } = json;
    expect(ProgramConfiguration.safeParse(withoutTheme).success).toBe(false);
  });
});
