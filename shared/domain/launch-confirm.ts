import { ADDRESS_CLASS_WORDS, classifyTarget, targetHost } from './address-class';
import { dockerRisks } from './docker-risk';
import { dangerousEnvKeys } from './launch-risk';
import { bundleError } from './bundle-errors';
import type { CodedText } from './host-wording';

/**
 * Something a server from elsewhere (registry entry, bundle, imported file)
 * asks for that runs code outside what it shows or opens walls: an env
 * variable that loads other code, a docker option that opens the container,
 * an address on this computer or its network. Each needs its own yes in the
 * review, named by `key`; the host refuses the install or import while any
 * is not confirmed, whatever the renderer shows.
 */
export interface LaunchRisk {
  kind: 'env' | 'docker' | 'address';
  /** What the review sends back to confirm it: the env key, `docker:<option>` or `address:<host>`. */
  key: string;
  message: string;
}

/** What a launch is, for its risks: a command line and env, or a URL. */
export interface LaunchShape {
  command?: string | undefined;
  args?: readonly string[] | undefined;
  env?: Readonly<Record<string, string>> | undefined;
  url?: string | undefined;
}

/** Every risk of one launch, env first, in the order they are written. */
export function launchRisks(launch: LaunchShape): LaunchRisk[] {
  const risks: LaunchRisk[] = dangerousEnvKeys(launch.env ?? {}).map(({ key, reason }) => ({
    kind: 'env',
    key,
    message: `Sets ${key}, which ${reason}`,
  }));
  for (const { option, reason } of dockerRisks(launch.command, launch.args ?? [])) {
    risks.push({ kind: 'docker', key: `docker:${option}`, message: `Docker option ${option} ${reason}` });
  }
  const target = addressRisk(launch.url);
  if (target !== undefined) risks.push(target);
  return risks;
}

/** The risk of a remote address on this computer, its network or a metadata service, or undefined for a public one. */
export function addressRisk(url: string | undefined): LaunchRisk | undefined {
  if (url === undefined) return undefined;
  const kind = classifyTarget(url);
  if (kind === 'public') return undefined;
  const host = targetHost(url);
  return {
    kind: 'address',
    key: `address:${host}`,
    message: `Connects to ${host}, ${ADDRESS_CLASS_WORDS[kind]}: a server from elsewhere has no business there unless you run it yourself`,
  };
}

/** The risks not in `confirmed`. */
export function unconfirmedRisks(risks: readonly LaunchRisk[], confirmed: readonly string[] | undefined): LaunchRisk[] {
  const yes = new Set(confirmed ?? []);
  return risks.filter((risk) => !yes.has(risk.key));
}

/** The refusal for unconfirmed risks, in words that say what to do, with its code (bundle-errors.unconfirmed). */
export function unconfirmedWords(
  risks: ReadonlyArray<Pick<LaunchRisk, 'key'>>,
  action: 'install' | 'import' = 'install',
): CodedText {
  const names = risks.map((risk) => risk.key.replace(/^(docker|address):/, '')).join(', ');
  return bundleError('bundle-errors.unconfirmed', { names, count: risks.length, action });
}

/** The refusal for unconfirmed risks, in English. */
export function unconfirmedMessage(
  risks: ReadonlyArray<Pick<LaunchRisk, 'key'>>,
  action: 'install' | 'import' = 'install',
): string {
  return unconfirmedWords(risks, action).text;
}

/** The confirmation key of a package from a non-public registry: the install review sends it when that source's own box is ticked. */
export function packageSourceKey(url: string): string {
  return `source:${url}`;
}
