import type { RegistryPackage } from './server-json';
import type { HostMessage } from '../../shared/domain/host-message';
import { registryError } from '../../shared/domain/registry-errors';

/** The public registry of each package type, in the spellings entries use for it. */
const PUBLIC_REGISTRIES: Readonly<Record<string, readonly string[]>> = {
  npm: ['https://registry.npmjs.org', 'https://registry.npmjs.com'],
  pypi: ['https://pypi.org', 'https://pypi.org/simple', 'https://pypi.python.org', 'https://files.pythonhosted.org'],
  oci: [
    'https://docker.io',
    'https://index.docker.io',
    'https://registry-1.docker.io',
    'https://registry.hub.docker.com',
    'https://ghcr.io',
  ],
};
const PUBLIC_IMAGE_HOSTS = ['docker.io', 'index.docker.io', 'registry-1.docker.io', 'ghcr.io'];
/** The package types with a public registry (their names, in words, are in registry-errors.ts). */
const PUBLIC_TYPES = ['npm', 'pypi', 'oci'];

/** A package that comes from somewhere other than its type's public registry: where, and what that means, in words. */
export interface PackageSource {
  url: string;
  message: string;
  /** `message` as a code, for the renderer to word. */
  hostMessage: HostMessage;
}

function trimmed(url: string): string {
  return url.replace(/\/+$/, '').toLowerCase();
}

/** An image name's registry host (`quay.io/x/y` → quay.io), or undefined for Docker Hub's short names (`mcp/fetch`). */
function imageHost(identifier: string): string | undefined {
  const first = identifier.split('/')[0] ?? '';
  return identifier.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')
    ? first.toLowerCase()
    : undefined;
}

/**
 * Where a package comes from when it is not its type's public registry, or
 * undefined. An image name with its own host (`evil.example/img`) is pulled
 * from that host. A `registryBaseUrl` of npm or PyPI is not used by Berth
 * (npx and uvx fetch from the registry this computer is set up with), so a
 * different one means the entry describes a package that may not be the
 * one that runs under the same name: the person is told both.
 */
export function packageSource(pkg: RegistryPackage): PackageSource | undefined {
  if (!PUBLIC_TYPES.includes(pkg.registryType)) return undefined;
  if (pkg.registryType === 'oci') {
    const host = imageHost(pkg.identifier);
    if (host !== undefined && !PUBLIC_IMAGE_HOSTS.includes(host)) {
      const words = registryError('registry-errors.package-source-image', { host });
      return { url: `https://${host}`, message: words.text, hostMessage: words.hostMessage };
    }
  }
  const base = pkg.registryBaseUrl;
  if (base === undefined || (PUBLIC_REGISTRIES[pkg.registryType] ?? []).includes(trimmed(base))) return undefined;
  const words = registryError('registry-errors.package-source-base', {
    base,
    registryType: pkg.registryType,
    identifier: pkg.identifier,
  });
  return { url: base, message: words.text, hostMessage: words.hostMessage };
}
