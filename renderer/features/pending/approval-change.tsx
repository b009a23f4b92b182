import type { ApprovalChange, ApprovedToolField, ToolFieldChange } from '../../../shared/domain/consent';
import { diffLines } from '../../../shared/line-diff';
import { WarningIcon } from '../../ui/icons';
import { showableName } from '../../../shared/domain/showable-name';
import { useT, type Translate } from '../../i18n/use-t';

/** A changed field's name (`pending.change.field.<field>`), in the active language. */
const fieldLabel = (t: Translate, field: ApprovedToolField): string => t(`pending.change.field.${field}`);

/** Why a permission the person gave no longer covers this call, in plain words. */
export function approvalChangeText(change: ApprovalChange, rawServer: string, t: Translate): string {
  const values = { server: showableName(rawServer), choice: t('pending.change.choice', { scope: change.policyScope }) };
  switch (change.reason) {
    case 'tool-changed':
      return t('pending.change.toolChanged', values);
    case 'server-changed':
      return t('pending.change.serverChanged', values);
    case 'unrecorded':
      return t('pending.change.unrecorded', values);
  }
}

/** A permission would have covered this call, but what it approved changed: say so, and show the change line by line. */
export function ApprovalChangeNotice({ change, server }: { change: ApprovalChange; server: string }) {
  const t = useT();
  return (
    <section className="approval-change" aria-label={t('pending.change.label')}>
      <p className="approval-change-reason">
        <WarningIcon />
        <span>{approvalChangeText(change, server, t)}</span>
      </p>
      {change.changes.map((field) => (
        <FieldDiff key={field.field} change={field} />
      ))}
    </section>
  );
}

const MARK = { same: ' ', removed: '−', added: '+' } as const;
const SPOKEN = { removed: 'pending.change.removed', added: 'pending.change.added' } as const;
/** A removed or added line is a deletion or insertion to assistive tech too (and to tests that find it by role). */
const LINE_ROLE = { same: undefined, removed: 'deletion', added: 'insertion' } as const;

function FieldDiff({ change }: { change: ToolFieldChange }) {
  const t = useT();
  const lines = diffLines(change.before, change.after);
  return (
    <figure className="field-diff" data-field={change.field}>
      <figcaption className="field-diff-label">{fieldLabel(t, change.field)}</figcaption>
      {lines.length === 0 ? (
        <p className="muted small">{t('pending.change.emptyAbsent')}</p>
      ) : (
        <pre
          className="diff mono"
          tabIndex={0}
          aria-label={t('pending.change.diffLabel', { field: fieldLabel(t, change.field) })}
        >
          {lines.map((line, index) => (
            <div key={index} className={`diff-line diff-${line.kind}`} role={LINE_ROLE[line.kind]}>
              <span className="diff-mark" aria-hidden="true">
                {MARK[line.kind]}
              </span>
              {line.kind === 'same' ? null : <span className="sr-only">{t(SPOKEN[line.kind])}</span>}
              {line.text === '' ? ' ' : line.text}
            </div>
          ))}
        </pre>
      )}
    </figure>
  );
}
