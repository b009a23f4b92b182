import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SAMPLING_POLICIES, type ConsentPolicy, type SamplingPolicy } from '../../../shared/domain/consent';
import type { ConsentRule } from '../../../shared/domain/consent-rules';
import { RuleForm } from './rule-form';
import { useBerth } from '../../store';
import { Button, Chip, InlineAlert } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { ShieldIcon, SparkleIcon } from '../../ui/icons';
import { DialogFooter } from '../../ui/dialog';
import { AlertDialog, AlertDialogCancel, AlertDialogDescription, AlertDialogTitle } from '../../ui/alert-dialog';
import { List, Row } from '../../ui/list';
import { formatDateTime } from '../../i18n/format';
import { failureText } from '../../i18n/host-message';
import type { MessageId } from '../../i18n/message-ids';
import { useT, type Translate } from '../../i18n/use-t';
import { words } from '../../i18n/words';
import type { Failure } from '../../../shared/result';

const SCOPE_LABEL: Record<ConsentPolicy['scope'], MessageId> = {
  server: 'settings.policies.scope.server',
  rule: 'settings.policies.scope.rule',
  tool: 'settings.policies.scope.tool',
  conversation: 'settings.policies.scope.conversation',
};

/** What a stale permission means, for its chip and tooltip. */
const STALE_LABEL: Record<NonNullable<ConsentPolicy['stale']>, { chip: MessageId; hint: MessageId }> = {
  'tool-changed': { chip: 'settings.policies.stale.tool-changed', hint: 'settings.policies.stale.tool-changed-hint' },
  'server-changed': {
    chip: 'settings.policies.stale.server-changed',
    hint: 'settings.policies.stale.server-changed-hint',
  },
  unrecorded: { chip: 'settings.policies.stale.unrecorded', hint: 'settings.policies.stale.unrecorded-hint' },
};

/** A rule in words (the host's describeRule says it in English for its own errors). */
function ruleWords(t: Translate, rule: ConsentRule): string {
  return rule.kind === 'name-pattern'
    ? t('settings.rules.describe.namePattern', { pattern: rule.pattern })
    : t('settings.rules.describe.readOnly');
}

/** What a permission covers, as a noun phrase the revoke sentences put in place (“all tools of “files””). */
function describePolicy(t: Translate, policy: ConsentPolicy): string {
  if (policy.scope === 'server') return t('settings.policies.target.server', { server: policy.server });
  if (policy.scope === 'rule')
    return t('settings.policies.target.rule', { rule: ruleWords(t, policy.rule), server: policy.server });
  return t('settings.policies.target.tool', { tool: policy.tool, server: policy.server });
}

/** The Tool cell: every tool a rule covers, a tool's name, or "all". */
function ToolCell({ policy }: { policy: ConsentPolicy }) {
  const t = useT();
  if (policy.scope === 'server') return <span className="muted">{t('settings.policies.allTools')}</span>;
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
  const t = useT();
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
          <ShieldIcon /> {t('settings.policies.title')}
        </h2>
      </header>
      <p className="settings-text">{t('settings.policies.about')}</p>
      {policies.length === 0 ? (
        <p className="settings-empty">{t('settings.policies.empty')}</p>
      ) : (
        <div className="table-wide">
          <table className="data-table" aria-label={t('settings.policies.title')}>
            <thead>
              <tr>
                <th scope="col">{t('settings.policies.col.allowed')}</th>
                <th scope="col">{t('settings.policies.col.server')}</th>
                <th scope="col">{t('settings.policies.col.tool')}</th>
                <th scope="col">{t('settings.policies.col.since')}</th>
                <th scope="col">{t('settings.policies.col.state')}</th>
                <th scope="col">
                  <span className="sr-only">{t('settings.policies.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {policies.map((policy) => (
                <tr key={policy.id} data-policy={policy.id}>
                  <td>
                    {t(SCOPE_LABEL[policy.scope])}
                    {policy.scope === 'conversation' ? (
                      <span className="muted small">
                        {t('settings.policies.conversation', {
                          conversation: conversations[policy.conversationId] ?? t('settings.policies.untilRestart'),
                        })}
                      </span>
                    ) : null}
                    {policy.scope === 'rule' ? (
                      <span className="small rule-text">
                        {t('settings.policies.ruleText', { rule: ruleWords(t, policy.rule) })}
                        {policy.rule.kind === 'read-only' ? (
                          <Chip tone="warning">{t('settings.policies.trustsClaim')}</Chip>
                        ) : null}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <code>{policy.server}</code>
                  </td>
                  <td>
                    <ToolCell policy={policy} />
                  </td>
                  <td>{formatDateTime(policy.createdAt)}</td>
                  <td>
                    {policy.stale ? (
                      <Chip tone="warning" title={t(STALE_LABEL[policy.stale].hint)}>
                        {t(STALE_LABEL[policy.stale].chip)}
                      </Chip>
                    ) : (
                      <span className="muted">{t('settings.policies.inEffect')}</span>
                    )}
                    {policy.stale ? <span className="sr-only"> — {t(STALE_LABEL[policy.stale].hint)}</span> : null}
                  </td>
                  <td className="cell-actions">
                    <Button
                      size="sm"
                      onClick={() => setRevoking(policy)}
                      aria-label={t('settings.policies.revokeFor', { target: describePolicy(t, policy) })}
                    >
                      {t('settings.policies.revoke')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <RuleForm />
      {revoking ? <RevokeDialog policy={revoking} onClose={() => setRevoking(undefined)} /> : null}
    </section>
  );
}

function RevokeDialog({ policy, onClose }: { policy: ConsentPolicy; onClose: () => void }) {
  const t = useT();
  const revoke = useBerth((s) => s.revokeConsentPolicy);
  const pushToast = useBerth((s) => s.pushToast);
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const result = await revoke(policy.id);
    setBusy(false);
    if (!result.ok) {
      setError(result);
      return;
    }
    onClose();
    pushToast({
      tone: 'success',
      title: words('settings.policies.revoked'),
      message: words('settings.policies.revokedBody', { target: describePolicy(t, policy) }),
    });
  }

  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()} className="dialog-narrow">
      <AlertDialogTitle>{t('settings.policies.confirm.title')}</AlertDialogTitle>
      <AlertDialogDescription>
        {t('settings.policies.confirm.body', { target: describePolicy(t, policy) })}
      </AlertDialogDescription>
      {error ? <InlineAlert>{failureText(error)}</InlineAlert> : null}
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">{t('settings.policies.confirm.keep')}</Button>
        </AlertDialogCancel>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          {t('settings.policies.revoke')}
        </Button>
      </DialogFooter>
    </AlertDialog>
  );
}

const SAMPLING_LABEL: Record<SamplingPolicy, MessageId> = {
  ask: 'settings.policies.sampling.policy.ask',
  'allow-session': 'settings.policies.sampling.policy.allow-session',
  'refuse-session': 'settings.policies.sampling.policy.refuse-session',
  never: 'settings.policies.sampling.policy.never',
};

/** How each server's sampling requests are answered. */
export function SamplingPoliciesSection() {
  const t = useT();
  const policies = useBerth((s) => s.samplingPolicies);
  const serverNames = useBerth(useShallow((s) => Object.keys(s.servers)));
  const setPolicy = useBerth((s) => s.setSamplingPolicy);
  const names = [...new Set([...serverNames, ...Object.keys(policies)])].sort((a, b) => a.localeCompare(b));
  return (
    <section className="settings-section" aria-labelledby="sampling-policies-title">
      <header className="settings-section-head">
        <h2 id="sampling-policies-title">
          <SparkleIcon /> {t('settings.policies.sampling.title')}
        </h2>
      </header>
      <p className="settings-text">{t('settings.policies.sampling.about')}</p>
      <List
        look="lines"
        className="sampling-policies"
        aria-label={t('settings.policies.sampling.list')}
        empty={<p className="settings-empty">{t('settings.policies.sampling.empty')}</p>}
      >
        {names.map((server) => {
          const current = policies[server] ?? 'ask';
          return (
            <Row key={server} data-server={server}>
              <code className="policy-server">{server}</code>
              {current !== 'ask' ? (
                <Chip tone={current === 'never' ? 'danger' : 'warning'}>{t(SAMPLING_LABEL[current])}</Chip>
              ) : null}
              <div className="spacer" />
              <Segmented
                value={current}
                options={SAMPLING_POLICIES.map((policy) => ({ value: policy, label: t(SAMPLING_LABEL[policy]) }))}
                aria-label={t('settings.policies.sampling.policyFor', { server })}
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
