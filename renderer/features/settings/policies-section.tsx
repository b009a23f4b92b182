import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SAMPLING_POLICIES, type ConsentPolicy, type SamplingPolicy } from '../../../shared/domain/consent';
import { describeRule } from '../../../shared/domain/consent-rules';
import { RuleForm } from './rule-form';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { ShieldIcon, SparkleIcon } from '../../ui/icons';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { List, Row } from '../../ui/list';

const SCOPE_LABEL: Record<ConsentPolicy['scope'], string> = {
  server: 'Every tool of the server',
  rule: 'Your rule',
  tool: 'This tool',
  conversation: 'This tool, in one conversation',
};

/** What a stale permission means, for its chip and tooltip. */
const STALE_LABEL: Record<NonNullable<ConsentPolicy['stale']>, { chip: string; hint: string }> = {
  'tool-changed': {
    chip: 'Tool changed',
    hint: 'The server changed this tool’s description, input schema or annotations since you allowed it. The next call asks again.',
  },
  'server-changed': {
    chip: 'Server changed',
    hint: 'This server’s command or address is not the one you allowed. The next call asks again.',
  },
  unrecorded: {
    chip: 'Needs a new yes',
    hint: 'Given in an earlier version of Berth, which did not record what you approved. The next call asks again.',
  },
};

function describePolicy(policy: ConsentPolicy): string {
  if (policy.scope === 'server') return `all tools of “${policy.server}”`;
  if (policy.scope === 'rule') return `${describeRule(policy.rule)} of “${policy.server}”`;
  return `“${policy.tool}” of “${policy.server}”`;
}

/** The Tool cell: every tool a rule covers, a tool's name, or "all". */
function ToolCell({ policy }: { policy: ConsentPolicy }) {
  if (policy.scope === 'server') return <span className="muted">all</span>;
  if (policy.scope === 'rule') {
    return (
      <span className="rule-tools">
        {policy.tools.map((name, index) => (
          <span key={name}>
            {index > 0 ? ', ' : ''}
            <code>{name}</code>
          </span>
        ))}
      </span>
    );
  }
  return <code>{policy.tool}</code>;
}

/** Stored “always allow” decisions, each revocable after a confirmation. */
export function ConsentPoliciesSection() {
  const policies = useBerth((s) => s.consentPolicies);
  // The list array only changes with the list; a map built in the selector would cost 5,000 entries on every store update.
  const conversationList = useBerth((s) => s.conversations);
  const conversations = useMemo(
    () => Object.fromEntries(conversationList.map((c) => [c.id, c.title])),
    [conversationList],
  );
  const [revoking, setRevoking] = useState<ConsentPolicy>();
  return (
    <section className="settings-section" aria-labelledby="consent-policies-title">
      <header className="settings-section-head">
        <h2 id="consent-policies-title">
          <ShieldIcon /> Tool permissions
        </h2>
      </header>
      <p className="settings-text">
        Tool calls run without asking only where you said so, and only while the server and tool are the ones you
        allowed: if either changes, the permission is marked and the next call asks again. Revoke a permission and the
        next matching call asks again. A rule you write covers the tools it lists, each as the server lists it now.
      </p>
      {policies.length === 0 ? (
        <p className="settings-empty">No stored permissions: every tool call asks first.</p>
      ) : (
        <table className="data-table" aria-label="Tool permissions">
          <thead>
            <tr>
              <th scope="col">Allowed</th>
              <th scope="col">Server</th>
              <th scope="col">Tool</th>
              <th scope="col">Since</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <tr key={policy.id} data-policy={policy.id}>
                <td>
                  {SCOPE_LABEL[policy.scope]}
                  {policy.scope === 'conversation' ? (
                    <span className="muted small"> ({conversations[policy.conversationId] ?? 'until restart'})</span>
                  ) : null}
                  {policy.scope === 'rule' ? (
                    <span className="small rule-text">
                      : {describeRule(policy.rule)}
                      {policy.rule.kind === 'read-only' ? <Chip tone="warning">trusts the server’s claim</Chip> : null}
                    </span>
                  ) : null}
                </td>
                <td>
                  <code>{policy.server}</code>
                </td>
                <td>
                  <ToolCell policy={policy} />
                </td>
                <td className="nowrap">{new Date(policy.createdAt).toLocaleString()}</td>
                <td>
                  {policy.stale ? (
                    <Chip tone="warning" title={STALE_LABEL[policy.stale].hint}>
                      {STALE_LABEL[policy.stale].chip}
                    </Chip>
                  ) : (
                    <span className="muted">In effect</span>
                  )}
                  {policy.stale ? <span className="sr-only"> — {STALE_LABEL[policy.stale].hint}</span> : null}
                </td>
                <td className="cell-actions">
                  <Button
                    size="sm"
                    onClick={() => setRevoking(policy)}
                    aria-label={`Revoke permission for ${describePolicy(policy)}`}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RuleForm />
      {revoking ? <RevokeDialog policy={revoking} onClose={() => setRevoking(undefined)} /> : null}
    </section>
  );
}

function RevokeDialog({ policy, onClose }: { policy: ConsentPolicy; onClose: () => void }) {
  const revoke = useBerth((s) => s.revokeConsentPolicy);
  const pushToast = useBerth((s) => s.pushToast);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await revoke(policy.id);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    onClose();
    pushToast({
      tone: 'success',
      title: 'Permission revoked',
      message: `Calls to ${describePolicy(policy)} ask again.`,
    });
  }

  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()} className="dialog-narrow">
      <AlertDialogTitle>Revoke this permission?</AlertDialogTitle>
      <AlertDialogDescription>Berth will ask again before running {describePolicy(policy)}.</AlertDialogDescription>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">Keep it</Button>
        </AlertDialogCancel>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          Revoke
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}

const SAMPLING_LABEL: Record<SamplingPolicy, string> = {
  ask: 'Ask every time',
  'allow-session': 'Allow this session',
  'refuse-session': 'Refuse this session',
  never: 'Never',
};

/** How each server's sampling requests are answered. */
export function SamplingPoliciesSection() {
  const policies = useBerth((s) => s.samplingPolicies);
  const serverNames = useBerth(useShallow((s) => Object.keys(s.servers)));
  const setPolicy = useBerth((s) => s.setSamplingPolicy);
  const names = [...new Set([...serverNames, ...Object.keys(policies)])].sort((a, b) => a.localeCompare(b));
  return (
    <section className="settings-section" aria-labelledby="sampling-policies-title">
      <header className="settings-section-head">
        <h2 id="sampling-policies-title">
          <SparkleIcon /> Sampling
        </h2>
      </header>
      <p className="settings-text">
        Servers may ask Berth’s model for completions. By default you review each request and its answer. “Allow this
        session” approves without asking until the server stops or restarts; “Refuse this session” refuses at once until
        Berth quits; “Never” refuses at once, also after a restart. Unreviewed requests use your default model, not the
        server’s preference. Each server’s max tokens per request and token budget per Berth session are in its
        Overview.
      </p>
      <List
        look="lines"
        aria-label="Sampling policy per server"
        empty={<p className="settings-empty">No servers yet.</p>}
      >
        {names.map((server) => {
          const current = policies[server] ?? 'ask';
          return (
            <Row key={server} data-server={server}>
              <code className="policy-server">{server}</code>
              {current !== 'ask' ? (
                <Chip tone={current === 'never' ? 'danger' : 'warning'}>{SAMPLING_LABEL[current]}</Chip>
              ) : null}
              <div className="spacer" />
              <Segmented
                value={current}
                options={SAMPLING_POLICIES.map((policy) => ({ value: policy, label: SAMPLING_LABEL[policy] }))}
                aria-label={`Sampling policy for ${server}`}
                onChange={(policy) => {
                  if (policy !== current) void setPolicy(server, policy);
                }}
              />
            </Row>
          );
        })}
      </List>
    </section>
  );
}
