import type { organizationsV1 } from '@eligo/proto';
import type { ServiceHandlers } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { deleteOrganizationSso, getOrganizationSso, setOrganizationSso } from '../app/organization-sso';
import { finishSsoSignOn, startSsoSignOn } from '../app/sso-sign-on';
import { organizationSsoToProto, ssoOutcomeToProto, ssoSettingsFromProto } from './sso-mapping';

type Handlers = ServiceHandlers<typeof organizationsV1.OrganizationsServiceService>;
type SsoHandlers = Pick<
  Handlers,
  'setOrganizationSso' | 'getOrganizationSso' | 'deleteOrganizationSso' | 'startSsoSignOn' | 'finishSsoSignOn'
>;

/** The single sign-on RPCs of the OrganizationsService (sso.proto), part of organizations.handlers.ts. */
export function ssoHandlers(app: AppContext): SsoHandlers {
  return {
    setOrganizationSso: async (req) => ({
      sso: organizationSsoToProto(
        await setOrganizationSso(app, req.organizationId, ssoSettingsFromProto(req)),
      ),
    }),
    getOrganizationSso: async (req) => ({
      sso: organizationSsoToProto(await getOrganizationSso(app, req.organizationId)),
    }),
    deleteOrganizationSso: async (req) => {
      await deleteOrganizationSso(app, req.organizationId);
      return {};
    },
    startSsoSignOn: async (req) => startSsoSignOn(app, req),
    finishSsoSignOn: async (req) => {
      const finished = await finishSsoSignOn(app, req);
      return {
        verificationId: finished.verificationId,
        organizationId: finished.organizationId,
        outcome: ssoOutcomeToProto[finished.outcome],
        reason: finished.reason,
      };
    },
  };
}
