import { codedFamily } from './host-wording';

type Entry = { name: string };
/** A bundle setting by its title, as the bundle's manifest writes it (the bundle's own words). */
type Setting = { title: string };
/** What a path setting takes. */
type PathKind = 'folder' | 'file';

/**
 * Why Berth will not open or install an MCP Bundle (.mcpb), as codes with their facts; the renderer words
 * them from renderer/i18n/locales/<locale>/bundle-errors.json. `name` is an entry's path inside the archive
 * (`manifest.json` for the file read first); `limit` a size as Berth writes it ("50 MiB"); `detail` the
 * OS's, the zip library's or the manifest schema's own words.
 */
export type BundleErrorMessages = {
  'bundle-errors.full-path': { path: string };
  'bundle-errors.cannot-run': { detail: string };
  'bundle-errors.already-installed': { bundle: string; version: string; server: string };
  'bundle-errors.not-open': Record<string, never>;
  'bundle-errors.upload-gone': Record<string, never>;
  'bundle-errors.cannot-open': { path: string; detail: string };
  'bundle-errors.not-a-file': { path: string };
  'bundle-errors.too-large': { limit: string };
  'bundle-errors.settings-unusable': { detail: string };
  'bundle-errors.not-from-bundle': { server: string };
  'bundle-errors.not-zip': Record<string, never>;
  'bundle-errors.too-short': Record<string, never>;
  'bundle-errors.zip64-archive': Record<string, never>;
  'bundle-errors.split': Record<string, never>;
  'bundle-errors.directory-past-end': Record<string, never>;
  'bundle-errors.directory-entry-unreadable': { index: number };
  'bundle-errors.directory-name-past-end': { index: number };
  'bundle-errors.zip64-entry': Entry;
  'bundle-errors.data-not-found': Entry;
  'bundle-errors.data-past-end': Entry;
  'bundle-errors.invalid-name': Record<string, never>;
  'bundle-errors.absolute-path': Entry;
  'bundle-errors.zip-slip': Entry;
  'bundle-errors.symlink': Entry;
  'bundle-errors.not-regular': Entry;
  'bundle-errors.past-header': Entry & { size: number };
  'bundle-errors.entry-too-large': Entry & { limit: string };
  'bundle-errors.total-too-large': { limit: string };
  'bundle-errors.entry-damaged': Entry & { detail: string };
  'bundle-errors.entry-size-mismatch': Entry & { written: number; size: number };
  'bundle-errors.entry-checksum': Entry;
  'bundle-errors.too-many-entries': { count: number; max: number };
  'bundle-errors.entry-encrypted': Entry;
  'bundle-errors.entry-method': Entry & { method: number };
  'bundle-errors.entry-twice': Entry;
  'bundle-errors.entry-cannot-unpack': Entry & { detail: string };
  'bundle-errors.file-twice': Entry;
  'bundle-errors.file-folder': Entry;
  'bundle-errors.file-encrypted': Entry;
  'bundle-errors.file-too-large': Entry & { max: number };
  'bundle-errors.file-unpacks-more': Entry & { max: number };
  'bundle-errors.file-damaged': Entry;
  'bundle-errors.file-method': Entry & { method: number };
  'bundle-errors.file-checksum': Entry;
  'bundle-errors.signature-unreadable': { detail: string };
  'bundle-errors.signature-invalid': Record<string, never>;
  'bundle-errors.no-manifest': Record<string, never>;
  'bundle-errors.manifest-not-json': { detail: string };
  'bundle-errors.manifest-not-object': Record<string, never>;
  'bundle-errors.manifest-no-version': { supported: string };
  'bundle-errors.manifest-unknown-version': { declared: string; supported: string };
  'bundle-errors.manifest-invalid': { detail: string };
  'bundle-errors.entry-point-outside': { entryPoint: string };
  'bundle-errors.no-setting': { key: string };
  'bundle-errors.setting-required': Setting;
  'bundle-errors.setting-one-value': Setting;
  'bundle-errors.setting-on-off': Setting;
  'bundle-errors.setting-number': Setting;
  'bundle-errors.setting-min': Setting & { min: number };
  'bundle-errors.setting-max': Setting & { max: number };
  'bundle-errors.setting-text': Setting;
  'bundle-errors.setting-path-relative': Setting & { kind: PathKind; path: string };
  'bundle-errors.setting-path-wrong-kind': Setting & { kind: PathKind; path: string };
  'bundle-errors.setting-path-missing': Setting & { kind: PathKind; path: string };
  'bundle-errors.secret-exposed': Setting & { where: 'command' | 'commandLine' };
  'bundle-errors.unconfirmed': { names: string; count: number; action: 'install' | 'import' };
};
export type BundleErrorCode = keyof BundleErrorMessages;

/** A bundle refused, in English with its code (the English is what Berth always said). */
export const bundleError = codedFamily<BundleErrorMessages>({
  'bundle-errors.full-path': ({ path }) => `Give the bundle's full path (got "${path}")`,
  'bundle-errors.cannot-run': ({ detail }) => `The bundle cannot run here: ${detail}`,
  'bundle-errors.already-installed': ({ bundle, version, server }) =>
    `${bundle} ${version} is already installed as "${server}": uninstall it first, or install a different version`,
  'bundle-errors.not-open': () => 'That bundle is no longer open: open the .mcpb file again',
  'bundle-errors.upload-gone': () => 'That upload is gone: open the bundle again',
  'bundle-errors.cannot-open': ({ path, detail }) => `Cannot open ${path}: ${detail}`,
  'bundle-errors.not-a-file': ({ path }) => `${path} is not a file`,
  'bundle-errors.too-large': ({ limit }) => `The bundle is larger than ${limit}, the largest Berth opens`,
  'bundle-errors.settings-unusable': ({ detail }) => `The bundle's server settings are not usable: ${detail}`,
  'bundle-errors.not-from-bundle': ({ server }) =>
    `"${server}" was not installed from a bundle: remove it from the server list instead`,
  'bundle-errors.not-zip': () =>
    'The file is not a zip archive (no end of central directory): a .mcpb bundle is a zip file',
  'bundle-errors.too-short': () => 'The file is too short to be a zip archive',
  'bundle-errors.zip64-archive': () =>
    'The archive is a ZIP64 archive, which Berth does not open (a bundle is far smaller than 4 GB)',
  'bundle-errors.split': () => 'The archive is split over several files: use a single .mcpb file',
  'bundle-errors.directory-past-end': () => 'The archive is damaged: its directory points past the end of the file',
  'bundle-errors.directory-entry-unreadable': ({ index }) =>
    `The archive is damaged: entry ${index} of its directory cannot be read`,
  'bundle-errors.directory-name-past-end': ({ index }) =>
    `The archive is damaged: the name of entry ${index} runs past its directory`,
  'bundle-errors.zip64-entry': ({ name }) => `"${name}" is a ZIP64 entry, which Berth does not open`,
  'bundle-errors.data-not-found': ({ name }) => `The archive is damaged: the data of "${name}" cannot be found`,
  'bundle-errors.data-past-end': ({ name }) =>
    `The archive is damaged: the data of "${name}" runs past the end of the file`,
  'bundle-errors.invalid-name': () => 'The archive has an entry with an empty or invalid name',
  'bundle-errors.absolute-path': ({ name }) =>
    `"${name}" is an absolute path: a bundle's files must stay inside its folder`,
  'bundle-errors.zip-slip': ({ name }) =>
    `"${name}" points outside the bundle's folder (zip-slip): the bundle is refused`,
  'bundle-errors.symlink': ({ name }) => `"${name}" is a symbolic link: bundles may not contain links`,
  'bundle-errors.not-regular': ({ name }) => `"${name}" is not a regular file or folder: the bundle is refused`,
  'bundle-errors.past-header': ({ name, size }) =>
    `"${name}" unpacks to more than its header says (${size} bytes): the archive is refused`,
  'bundle-errors.entry-too-large': ({ name, limit }) =>
    `"${name}" is larger than ${limit}, the most Berth unpacks for one file`,
  'bundle-errors.total-too-large': ({ limit }) =>
    `The bundle unpacks to more than ${limit}, the most Berth unpacks for one bundle`,
  'bundle-errors.entry-damaged': ({ name, detail }) =>
    `"${name}" cannot be unpacked (${detail}): the archive is damaged`,
  'bundle-errors.entry-size-mismatch': ({ name, written, size }) =>
    `"${name}" unpacks to ${written} bytes, not the ${size} its header says: the archive is damaged`,
  'bundle-errors.entry-checksum': ({ name }) => `"${name}" fails its checksum: the archive is damaged`,
  'bundle-errors.too-many-entries': ({ count, max }) =>
    `The archive has ${count} entries; Berth unpacks at most ${max}`,
  'bundle-errors.entry-encrypted': ({ name }) => `"${name}" is encrypted: Berth cannot check what it contains`,
  'bundle-errors.entry-method': ({ name, method }) =>
    `"${name}" uses compression method ${method}; bundles use stored or deflated entries`,
  'bundle-errors.entry-twice': ({ name }) => `"${name}" appears twice in the archive`,
  'bundle-errors.entry-cannot-unpack': ({ name, detail }) => `"${name}" cannot be unpacked: ${detail}`,
  'bundle-errors.file-twice': ({ name }) => `The archive has ${name} twice`,
  'bundle-errors.file-folder': ({ name }) => `${name} is a folder in the archive`,
  'bundle-errors.file-encrypted': ({ name }) => `${name} is encrypted`,
  'bundle-errors.file-too-large': ({ name, max }) => `${name} is larger than ${max} bytes`,
  'bundle-errors.file-unpacks-more': ({ name, max }) => `${name} unpacks to more than ${max} bytes`,
  'bundle-errors.file-damaged': ({ name }) => `${name} cannot be unpacked: the archive is damaged`,
  'bundle-errors.file-method': ({ name, method }) =>
    `${name} uses compression method ${method}; bundles use stored or deflated entries`,
  'bundle-errors.file-checksum': ({ name }) => `${name} fails its checksum: the archive is damaged`,
  'bundle-errors.signature-unreadable': ({ detail }) =>
    `The bundle's signature cannot be read (${detail}): the bundle is refused`,
  'bundle-errors.signature-invalid': () =>
    'The bundle carries a signature that does not verify: it was changed after it was signed, or it was signed with a certificate this computer does not trust. The bundle is refused',
  'bundle-errors.no-manifest': () => 'The archive has no manifest.json at its top: it is not an MCP Bundle',
  'bundle-errors.manifest-not-json': ({ detail }) => `manifest.json is not valid JSON (${detail})`,
  'bundle-errors.manifest-not-object': () => 'manifest.json is not a JSON object',
  'bundle-errors.manifest-no-version': ({ supported }) =>
    `manifest.json has no manifest_version: Berth reads manifest versions ${supported}`,
  'bundle-errors.manifest-unknown-version': ({ declared, supported }) =>
    `manifest.json declares manifest_version ${declared}, which Berth does not know (it reads ${supported})`,
  'bundle-errors.manifest-invalid': ({ detail }) => `manifest.json is invalid: ${detail}`,
  'bundle-errors.entry-point-outside': ({ entryPoint }) =>
    `manifest.json's server.entry_point "${entryPoint}" must be a path inside the bundle`,
  'bundle-errors.no-setting': ({ key }) => `The bundle has no setting "${key}"`,
  'bundle-errors.setting-required': ({ title }) => `${title} is required`,
  'bundle-errors.setting-one-value': ({ title }) => `${title} takes one value`,
  'bundle-errors.setting-on-off': ({ title }) => `${title}: choose on or off`,
  'bundle-errors.setting-number': ({ title }) => `${title}: enter a number`,
  'bundle-errors.setting-min': ({ title, min }) => `${title}: enter at least ${min}`,
  'bundle-errors.setting-max': ({ title, max }) => `${title}: enter at most ${max}`,
  'bundle-errors.setting-text': ({ title }) => `${title}: enter text`,
  'bundle-errors.setting-path-relative': ({ title, kind, path }) =>
    `${title}: enter the full path of a ${kind} (got "${path}")`,
  'bundle-errors.setting-path-wrong-kind': ({ title, kind, path }) => `${title}: ${path} is not a ${kind}`,
  'bundle-errors.setting-path-missing': ({ title, kind, path }) => `${title}: there is no ${kind} at ${path}`,
  'bundle-errors.secret-exposed': ({ title, where }) =>
    `The bundle puts ${title} (a sensitive setting) ${where === 'command' ? 'in the command' : 'on the command line'}, where other programs on this computer can read it: Berth does not run it that way`,
  'bundle-errors.unconfirmed': ({ names, count, action }) =>
    `Confirm first what this server asks for that runs code or opens its walls (${names}): tick "I understand" for ${count === 1 ? 'it' : 'them'} in the review, then ${action} again`,
});
