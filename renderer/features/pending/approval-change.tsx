import type { ApprovalChange, ApprovedToolField, ToolFieldChange } from '../../../shared/domain/consent';
import { diffLines } from '../../../shared/line-diff';
import { WarningIcon } from '../../ui/icons';
import { showableName } from '../../../shared/domain/showable-name';

const FIELD_LABEL: Record<ApprovedToolField, string> = {
  title: 'Title',
  description: 'Description',
  inputSchema: 'Input schema (what the tool accepts)',
  annotations: 'Annotations (the server’s claims)',
};

const CHOICE_LABEL: Record<ApprovalChange['policyScope'], string> = {
  server: '“Always allow this server”',
  rule: 'a rule in Settings that allows it',
  tool: '“Always allow this tool”',
  conversation: '“Allow for this conversation”',
};

/** Why a permission the person gave no longer covers this call, in plain words. */
export function approvalChangeText(change: ApprovalChange, rawServer: string): string {
  const server = showableName(rawServer);
  const choice = CHOICE_LABEL[change.policyScope];
  switch (change.reason) {
    case 'tool-changed':
      return `You chose ${choice} before, but “${server}” has changed this tool since. Check what changed before you allow it again.`;
    case 'server-changed':
      return `You chose ${choice} for “${server}”, but its command or address is different now: it may be another program. Berth asks again.`;
    case 'unrecorded':
      return `You chose ${choice} in an earlier version of Berth, which did not record what you approved. Berth asks once more and remembers it this time.`;
  }
}

/** A permission would have covered this call, but what it approved changed: say so, and show the change line by line. */
export function ApprovalChangeNotice({ change, server }: { change: ApprovalChange; server: string }) {
  return (
    <section className="approval-change" aria-label="Changed since you allowed it">
      <p className="approval-change-reason">
        <WarningIcon />
        <span>{approvalChangeText(change, server)}</span>
      </p>
      {change.changes.map((field) => (
        <FieldDiff key={field.field} change={field} />
      ))}
    </section>
  );
}

const MARK = { same: ' ', removed: '−', added: '+' } as const;
const SPOKEN = { same: '', removed: 'removed: ', added: 'added: ' } as const;
/** A removed or added line is a deletion or insertion to assistive tech too (and to tests that find it by role). */
const LINE_ROLE = { same: undefined, removed: 'deletion', added: 'insertion' } as const;

function FieldDiff({ change }: { change: ToolFieldChange }) {
  const lines = diffLines(change.before, change.after);
  return (
    <figure className="field-diff" data-field={change.field}>
      <figcaption className="field-diff-label">{FIELD_LABEL[change.field]}</figcaption>
      {lines.length === 0 ? (
        <p className="muted small">Was empty, now absent (or the other way round).</p>
      ) : (
        <pre className="diff mono" tabIndex={0} aria-label={`${FIELD_LABEL[change.field]}: lines removed and added`}>
          {lines.map((line, index) => (
            <div key={index} className={`diff-line diff-${line.kind}`} role={LINE_ROLE[line.kind]}>
              <span className="diff-mark" aria-hidden="true">
                {MARK[line.kind]}
              </span>
              {line.kind === 'same' ? null : <span className="sr-only">{SPOKEN[line.kind]}</span>}
              {line.text === '' ? ' ' : line.text}
            </div>
          ))}
        </pre>
      )}
    </figure>
  );
}
