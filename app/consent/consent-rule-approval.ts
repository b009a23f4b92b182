import { consentError } from '../../shared/domain/consent-errors';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import type { ApprovedTool, PolicyStale } from '../../shared/domain/consent';
import { describeRule, ruleCovers } from '../../shared/domain/consent-rules';
import type { ConsentRule } from '../../shared/domain/consent-rules';
import { approvedToolOf, ruleStaleness } from './approval-fingerprint';
import type { PolicyApproval } from './approval-fingerprint';

/** A server as it is now: its identity, and its tools while it is ready (declared here, not in the broker, which imports this file). */
export interface ServerNow {
  identity: string;
  tools?: ReadonlyArray<{
    name: string;
    title?: string;
    description?: string;
    inputSchema?: Record<string, unknown>;
    annotations?: Record<string, unknown>;
  }>;
}
import type { PolicyScope } from './policy-store';

/**
 * What a rule approves when the person writes it: the server as it runs now
 * and each tool it lists now that falls under the rule, as listed (the same
 * fingerprint a tool's "always allow" records). Settings showed exactly these
 * tools before the person saved the rule.
 */
export function ruleApproval(
  server: string,
  rule: ConsentRule,
  now: ServerNow | undefined,
): { scope: Extract<PolicyScope, { scope: 'rule' }>; approval: PolicyApproval } {
  if (now === undefined)
    throw HostError.coded('NOT_FOUND', serverError('server-errors.not-supervised', { name: server }));
  if (now.tools === undefined)
    throw HostError.coded('NOT_READY', consentError('consent-errors.rule-server-not-running', { server }));
  const tools: Record<string, ApprovedTool> = {};
  for (const tool of now.tools) if (ruleCovers(rule, tool)) tools[tool.name] = approvedToolOf(tool);
  const names = Object.keys(tools).sort();
  if (names.length === 0)
    throw HostError.coded(
      'INVALID_INPUT',
      consentError('consent-errors.rule-matches-nothing', { server, rule: describeRule(rule) }),
    );
  return { scope: { scope: 'rule', server, rule, tools: names }, approval: { server: now.identity, tools } };
}

/** A listed rule is stale when the server is another, or when a tool it recorded is listed differently now. */
export function ruleListStaleness(approval: PolicyApproval, now: ServerNow): PolicyStale | undefined {
  if (approval.server !== now.identity) return 'server-changed';
  const changed = now.tools?.some((tool) => {
    const judged = ruleStaleness(approval, tool.name, { server: now.identity, tool: approvedToolOf(tool) });
    return judged.covered && judged.stale !== undefined;
  });
  return changed === true ? 'tool-changed' : undefined;
}
