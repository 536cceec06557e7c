import { programsProgramV1, programsV1 } from '@eligo/proto';
import { settings } from '../../test/program-settings';
import type { ProgramSettings } from '../domain/program';
import { noInstantMatch } from '../domain/instant-match';
import {
  accessTokenToProto,
  modeFilterFromProto,
  notificationsFromProto,
  programInputFromProto,
  programSummaryToProto,
  programToProto,
} from './mapping';

const settingsOfProgram = (): ProgramSettings => ({
  ...settings(),
  segment: 'student',
  instantMatch: noInstantMatch(),
});

const { WebhookNotification: WN } = programsProgramV1;

describe('webhook notifications mapping', () => {
  it('names the known values without the prefix, and passes the others on for the domain to refuse', () => {
    expect(
      notificationsFromProto([
        WN.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED,
        WN.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS,
        WN.WEBHOOK_NOTIFICATION_EXPIRATION,
        WN.WEBHOOK_NOTIFICATION_UNSPECIFIED,
        WN.UNRECOGNIZED,
        7,
      ]),
    ).toEqual(['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION', 'UNSPECIFIED', '-1', '7']);
  });

  it('takes a webhook given with a program with its notifications, and gives them back', () => {
    const input = programInputFromProto(
      programsProgramV1.Program.create({
        webhook: {
          callbackUri: 'https://h.example.com',
          createdAt: undefined,
          notifications: [WN.WEBHOOK_NOTIFICATION_EXPIRATION],
        },
      }),
    );
    expect(input.webhook).toEqual({ callbackUri: 'https://h.example.com', notifications: ['EXPIRATION'] });

    const createdAt = new Date('2030-01-01T00:00:00Z');
    const proto = programToProto({
      ...settingsOfProgram(),
      id: 'b'.repeat(24),
      accountId: 'a'.repeat(24),
      instantSourceSealedSecret: null,
      webhook: {
        callbackUri: 'https://h.example.com',
        notifications: ['DOCUMENT_REJECTED', 'EXPIRATION'],
        createdAt,
      },
      rewardCodesRemaining: 0,
      createdAt,
      updatedAt: createdAt,
    });
    expect(proto.webhook).toEqual({
      callbackUri: 'https://h.example.com',
      createdAt,
      notifications: [WN.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED, WN.WEBHOOK_NOTIFICATION_EXPIRATION],
    });
  });
});

describe('staff console lists mapping', () => {
  const at = new Date('2030-01-01T00:00:00.123Z');

  it('takes UNSPECIFIED as both modes and refuses a mode the contract does not know', () => {
    expect(modeFilterFromProto(programsProgramV1.ProgramMode.PROGRAM_MODE_UNSPECIFIED)).toBeUndefined();
    expect(modeFilterFromProto(programsProgramV1.ProgramMode.PROGRAM_MODE_LIVE)).toBe('LIVE');
    expect(() => modeFilterFromProto(9)).toThrow('mode: unknown value 9');
  });

  it('summarises a program with its enums', () => {
    expect(
      programSummaryToProto({
        id: 'b'.repeat(24),
        accountId: 'a'.repeat(24),
        name: 'Spring',
        segment: 'military',
        mode: 'TEST',
        offerType: 'REWARD_POOL',
        createdAt: at,
        updatedAt: at,
      }),
    ).toEqual({
      programId: 'b'.repeat(24),
      accountId: 'a'.repeat(24),
      name: 'Spring',
      segment: 'military',
      mode: programsProgramV1.ProgramMode.PROGRAM_MODE_TEST,
      offerType: programsProgramV1.OfferType.OFFER_TYPE_REWARD_POOL,
      createdAt: at,
      updatedAt: at,
    });
  });

  it('shows a token with its roles, revoked_at unset while live', () => {
    const token = {
      id: 'c'.repeat(24),
      accountId: 'a'.repeat(24),
      name: 'ci',
      roles: ['REPORTER' as const],
      createdAt: at,
      revokedAt: null,
    };
    expect(accessTokenToProto(token)).toEqual({
      tokenId: 'c'.repeat(24),
      accountId: 'a'.repeat(24),
      name: 'ci',
      roles: [programsV1.TokenRole.TOKEN_ROLE_REPORTER],
      createdAt: at,
      revokedAt: undefined,
    });
    expect(accessTokenToProto({ ...token, revokedAt: at }).revokedAt).toBe(at);
  });
});
