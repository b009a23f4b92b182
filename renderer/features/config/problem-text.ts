import type { ConfigProblem } from '../../../shared/domain';
import type { Translate } from '../../i18n/use-t';

/** "Line 3, column 7: Expected comma" or "mcpServers.github.command: Required" (the message is the parser's, as it is). */
export function describeProblem(problem: ConfigProblem, t: Translate): string {
  if (problem.line !== undefined) {
    return problem.column !== undefined
      ? t('config.problem.lineColumn', { line: problem.line, column: problem.column, message: problem.message })
      : t('config.problem.line', { line: problem.line, message: problem.message });
  }
  if (problem.field) return t('config.problem.field', { field: problem.field, message: problem.message });
  return problem.message;
}
