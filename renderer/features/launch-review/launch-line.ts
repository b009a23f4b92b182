import type { ImportWarning } from '../../../shared/contract/config-import';

/**
 * What a server would run, as both reviews show it: a config import's
 * candidate (ImportCandidateView) and a registry install's plan (LaunchPlan).
 */
export interface LaunchView {
  kind: 'stdio' | 'remote';
  command?: string | undefined;
  /** The absolute file the command runs, when found on the launch PATH. */
  resolvedCommand?: string | undefined;
  args?: string[] | undefined;
  cwd?: string | undefined;
  /** Secret values already masked by the host. */
  env?: Record<string, string> | undefined;
  url?: string | undefined;
  headerNames?: string[] | undefined;
  warnings: ImportWarning[];
}

/** The command line as one string, or the remote's address. */
export function launchLine(launch: LaunchView): string {
  if (launch.kind === 'remote') return launch.url ?? '';
  return [launch.command ?? '', ...(launch.args ?? [])].map(quoteArg).join(' ');
}

/** An argument as a shell would need it, so one argument with a space is not read as two. */
function quoteArg(arg: string): string {
  return arg === '' || /[\s"'\\$`]/.test(arg) ? JSON.stringify(arg) : arg;
}
