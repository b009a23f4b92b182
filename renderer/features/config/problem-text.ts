import type { ConfigProblem } from '../../../shared/domain';

/** "Line 3, column 7: Expected comma" or "mcpServers.github.command: Required". */
export function describeProblem(problem: ConfigProblem): string {
  if (problem.line !== undefined) {
    const where =
      problem.column !== undefined ? `Line ${problem.line}, column ${problem.column}` : `Line ${problem.line}`;
    return `${where}: ${problem.message}`;
  }
  if (problem.field) return `${problem.field}: ${problem.message}`;
  return problem.message;
}
