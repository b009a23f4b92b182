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
};
export type RegistryErrorCode = keyof RegistryErrorMessages;

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
});
