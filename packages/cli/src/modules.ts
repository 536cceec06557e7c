import type { ModuleDefinition, ModuleName } from '@eligo/runtime';
import { definition as documents } from '@eligo/documents';
import { definition as gateway } from '@eligo/gateway';
import { definition as notifier } from '@eligo/notifier';
import { definition as organizations } from '@eligo/organizations';
import { definition as programs } from '@eligo/programs';
import { definition as reports } from '@eligo/reports';
import { definition as verification } from '@eligo/verification';

/**
 * Every module of the deployment, the one registry: what the `eligo` binary can host (`--target`) and the
 * names ELIGO_<NAME>_GRPC_ADDRESS refers to. The runtime knows no module by name.
 */
export const allModules: Record<ModuleName, ModuleDefinition> = {
  gateway,
  verification,
  documents,
  organizations,
  programs,
  reports,
  notifier,
};
