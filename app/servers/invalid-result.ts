import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * The SDK reports a result that fails its schema as "Invalid result for
 * <method>: " followed by the validator's issues as pretty-printed JSON —
 * dozens of lines nobody can read in a status line. This turns that into one
 * sentence naming the method and the first few bad fields.
 */

interface Issue {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  /** A union's branches, each with its own issues. */
  errors?: Issue[][];
}

const SHOWN_ISSUES = 3;
const INVALID_RESULT = /^Invalid result for (\S+): (\[[\s\S]*\])$/;

function isIssueList(value: unknown): value is Issue[] {
  return Array.isArray(value) && value.every((item) => item !== null && typeof item === 'object');
}

/** "tools.0.name: expected string", descending into the union branch that came closest. */
function flatten(issues: Issue[], prefix: PropertyKey[]): string[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...(issue.path ?? [])];
    const branches = (issue.errors ?? []).filter((branch) => branch.length > 0);
    if (issue.code === 'invalid_union' && branches.length > 0) {
      const closest = branches.reduce((best, branch) => (branch.length < best.length ? branch : best));
      return flatten(closest, path);
    }
    const where = path.length === 0 ? 'result' : path.map(String).join('.');
    return [`${where}: ${issue.message ?? issue.code ?? 'invalid'}`];
  });
}

/** A readable message for a schema-invalid result; undefined for any other error. */
export function describeInvalidResult(error: unknown): string | undefined {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.InvalidResult) return undefined;
  const match = INVALID_RESULT.exec(error.message);
  if (match === null) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(match[2] as string);
  } catch {
    return undefined;
  }
  if (!isIssueList(issues) || issues.length === 0) return undefined;
  const lines = [...new Set(flatten(issues, []))];
  const more = lines.length > SHOWN_ISSUES ? ` (and ${lines.length - SHOWN_ISSUES} more)` : '';
  return `the server's ${match[1]} result is not valid MCP: ${lines.slice(0, SHOWN_ISSUES).join('; ')}${more}`;
}
