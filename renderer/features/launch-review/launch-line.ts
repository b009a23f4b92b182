import type { ImportWarning } from '../../../shared/contract/config-import';
import { shellLine } from '../../../shared/domain/shell-line';

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

/** The command line as one string a shell reads back as the same argv (see shellLine), or the remote's address. */
export function launchLine(launch: LaunchView): string {
  if (launch.kind === 'remote') return launch.url ?? '';
  return shellLine([launch.command ?? '', ...(launch.args ?? [])]);
}
