import type { RegistryPackage } from './server-json';

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
const PUBLIC_NAMES: Readonly<Record<string, string>> = {
  npm: 'the public npm registry',
  pypi: 'PyPI',
  oci: 'Docker Hub or GitHub’s container registry',
};

/** A package that comes from somewhere other than its type's public registry: where, and what that means, in words. */
export interface PackageSource {
  url: string;
  message: string;
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
  const publicName = PUBLIC_NAMES[pkg.registryType];
  if (publicName === undefined) return undefined;
  if (pkg.registryType === 'oci') {
    const host = imageHost(pkg.identifier);
    if (host !== undefined && !PUBLIC_IMAGE_HOSTS.includes(host)) {
      return {
        url: `https://${host}`,
        message: `The image comes from ${host}, not ${publicName}: docker pulls it from there. Install it only if you trust ${host}.`,
      };
    }
  }
  const base = pkg.registryBaseUrl;
  if (base === undefined || (PUBLIC_REGISTRIES[pkg.registryType] ?? []).includes(trimmed(base))) return undefined;
  const runner = pkg.registryType === 'npm' ? 'npx' : pkg.registryType === 'pypi' ? 'uvx' : 'docker';
  return {
    url: base,
    message: `The entry says this package comes from ${base}, not ${publicName}. Berth does not fetch from there: ${runner} gets “${pkg.identifier}” from the registry this computer is set up to use, which may hold a different package under the same name. Install it only if you know why the entry names ${base}.`,
  };
}
