import { codedFamily } from './host-wording';

/**
 * The failures of the MCP Registry and of installing or updating from it, as codes with their facts; the
 * renderer words them from renderer/i18n/locales/<locale>/registry-errors.json. `detail` is the registry's
 * or the network's own words, or the install's problems joined as Berth lists them.
 */
export type RegistryErrorMessages = {
  'registry-errors.review-gone': Record<string, never>;
  'registry-errors.not-from-registry': { server: string };
  'registry-errors.update-needs-more': { version: string; name: string; detail: string };
  'registry-errors.update-asks-more': { version: string; name: string; detail: string };
  'registry-errors.no-such-entry': { detail: string };
  'registry-errors.unreachable': { detail: string };
  /** An image pulled from its own host, not Docker Hub or GitHub's registry. */
  'registry-errors.package-source-image': { host: string };
  /** An entry naming a registry other than its type's public one (`registryType`: npm, pypi or oci). */
  'registry-errors.package-source-base': { base: string; registryType: string; identifier: string };
  // The install review's own refusals (a field's `InstallFieldError.hostMessage`): `name` a server Berth has,
  // `url` the package's registry, `reason` why the OS sandbox cannot hold the server (Berth's sandbox words).
  'registry-errors.name-taken': { name: string };
  'registry-errors.deleted': Record<string, never>;
  'registry-errors.confirm-source': { url: string };
  'registry-errors.sandbox-misfit': { reason: string };
};
export type RegistryErrorCode = keyof RegistryErrorMessages;

/** The public registry of each package type, in words. */
const PUBLIC_NAMES: Readonly<Record<string, string>> = {
  npm: 'the public npm registry',
  pypi: 'PyPI',
  oci: 'Docker Hub or GitHub’s container registry',
};
const RUNNERS: Readonly<Record<string, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** A registry or install failure in English with its code (the English is what Berth always said). */
export const registryError = codedFamily<RegistryErrorMessages>({
  'registry-errors.review-gone': () => 'That review is no longer open: review the install again',
  'registry-errors.not-from-registry': ({ server }) => `"${server}" was not installed from a registry`,
  'registry-errors.update-needs-more': ({ version, name, detail }) =>
    `Version ${version} of ${name} needs more than the installed one (${detail}): install it again from Discover`,
  'registry-errors.update-asks-more': ({ version, name, detail }) =>
    `Version ${version} of ${name} asks for more than the installed one (${detail}): install it again from Discover to review it`,
  'registry-errors.no-such-entry': ({ detail }) => `The registry has no such server or version (${detail})`,
  'registry-errors.unreachable': ({ detail }) =>
    `The registry could not be used (${detail}), and nothing from it is cached yet.`,
  'registry-errors.package-source-image': ({ host }) =>
    `The image comes from ${host}, not ${PUBLIC_NAMES.oci}: docker pulls it from there. Install it only if you trust ${host}.`,
  'registry-errors.package-source-base': ({ base, registryType, identifier }) =>
    `The entry says this package comes from ${base}, not ${PUBLIC_NAMES[registryType] ?? registryType}. Berth does not fetch from there: ${RUNNERS[registryType] ?? 'docker'} gets “${identifier}” from the registry this computer is set up to use, which may hold a different package under the same name. Install it only if you know why the entry names ${base}.`,
  'registry-errors.name-taken': ({ name }) => `Berth already has a server named "${name}": choose another name`,
  'registry-errors.deleted': () => 'Its publisher deleted this version from the registry: it is not installed again',
  'registry-errors.confirm-source': ({ url }) => `Confirm where this package comes from (${url}) before installing it`,
  'registry-errors.sandbox-misfit': ({ reason }) =>
    `Turn the OS sandbox off for this server: ${reason}. Its container is what keeps it apart.`,
});
