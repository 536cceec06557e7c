import { marketplaceEndpoints } from './marketplace';
import { reverifyEndpoints } from './reverify';
import { verificationFlowEndpoints } from './verification';
import { VerificationMetadataText } from './verification-requests';
import { verificationStepEndpoints } from './verification-steps';

/** Every endpoint of REST v2's verification flow: start and state, steps, marketplace start, re-verification. */
export const verificationEndpoints = [
  ...verificationFlowEndpoints,
  ...verificationStepEndpoints,
  ...marketplaceEndpoints,
  ...reverifyEndpoints,
] as const;

/** Named schemas of the flow that no operation refers to: what the personal-info steps hold metadata to. */
export const verificationNamedSchemas = [VerificationMetadataText] as const;
