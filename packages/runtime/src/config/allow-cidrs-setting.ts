import { z } from 'zod';
import { parseAllowCidrs } from '../net/address-policy';

/**
 * ELIGO_WEBHOOK_ALLOW_CIDRS as a setting of a module's config schema: the non-public ranges that outbound calls
 * chosen by customers (webhooks, HTTP sources, OpenID issuers) may still reach. One rule, read by each module
 * that makes such calls; a bad entry fails the boot naming it.
 */
export const allowCidrsSetting = z
  .string()
  .default('')
  .transform((text, ctx) => {
    try {
      return parseAllowCidrs(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
