import type { ConfigProblem } from '../../../shared/domain';
import { hostText } from '../../i18n/host-message';
import type { Translate } from '../../i18n/use-t';

/**
 * "Line 3, column 7: Expected comma" or "mcpServers.github.command: Required": a problem with a code in the
 * person's language, else the host's words (the parser's or the schema library's) as they are.
 */
export function describeProblem(problem: ConfigProblem, t: Translate): string {
  const message = hostText(problem.hostMessage, problem.message);
  if (problem.line !== undefined) {
    return problem.column !== undefined
      ? t('config.problem.lineColumn', { line: problem.line, column: problem.column, message })
      : t('config.problem.line', { line: problem.line, message });
  }
  if (problem.field) return t('config.problem.field', { field: problem.field, message });
  return message;
}
