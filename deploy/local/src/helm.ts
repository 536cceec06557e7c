import path from 'node:path';
import { cacheDirFrom } from './config';
import { goInstalled } from './go-install';
import type { Log } from './log';
import type { StartContext } from './types';

/**
 * The Helm version, as a Go module version. Release binaries come from get.helm.sh, which this project's
 * machines cannot reach (package registries only), so Helm is built from the Go module proxy with `go install`.
 */
export const HELM_VERSION = 'v3.22.0';
const HELM_PACKAGE = 'helm.sh/helm/v3/cmd/helm';
/** The Kubernetes version of Helm v3.22.0's client-go (v0.37.0): what `helm template` and `helm lint` assume. */
const KUBE_MINOR = '37';
/**
 * The stamps of Helm's release Makefile. Without them `helm version` says "v3.22" and `helm template` assumes
 * Kubernetes v1.20, refusing any chart with a newer kubeVersion.
 */
const LDFLAGS = [
  `-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
  ...['pkg/lint/rules', 'pkg/chartutil'].flatMap((pkg) => [
    `-X helm.sh/helm/v3/${pkg}.k8sVersionMajor=1`,
    `-X helm.sh/helm/v3/${pkg}.k8sVersionMinor=${KUBE_MINOR}`,
  ]),
].join(' ');

/** <cache>/helm/<version>-k1.<minor>/helm, built on first use (go-install.ts). */
export function helmBinary(ctx: Pick<StartContext, 'cacheDir' | 'log' | 'env'>): Promise<string> {
  return goInstalled(
    {
      name: 'Helm',
      target: `${HELM_PACKAGE}@${HELM_VERSION}`,
      binary: 'helm',
      flags: [`-ldflags=${LDFLAGS}`],
      takes: 'a few minutes',
    },
    // `-k1.37`: a binary built without the stamps (or with others) is never taken for this one.
    path.join(ctx.cacheDir, 'helm', `${HELM_VERSION}-k1.${KUBE_MINOR}`),
    ctx,
  );
}

/** The pinned Helm binary for tests and `npm run infra -- helm`, built under the cache dir on first use. */
export function ensureHelm(env: NodeJS.ProcessEnv = process.env, log: Log = () => {}): Promise<string> {
  return helmBinary({ cacheDir: cacheDirFrom(env), env, log });
}
