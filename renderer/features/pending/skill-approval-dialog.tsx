import { Button } from '../../ui/controls';
import { BookIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';

const formatBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A server's skill is about to reach the model. Skills are the server's
 * words steering the model, so the first load asks, and so does any change
 * to the skill's files (the approval is bound to their digests). A second
 * question comes when the skill's text names another server's tools or folders.
 */
export function SkillApprovalDialog({ request, answer, busy, error }: PendingDialogProps<'skill'>) {
  const { payload } = request;
  const crossServer = payload.stage === 'cross-server';
  return (
    <PendingFrame
      request={request}
      icon={<BookIcon />}
      title={
        crossServer ? (
          <>
            Skill <SafeName className="consent-server" name={payload.skill} /> refers to other servers
          </>
        ) : (
          <>
            {payload.changed ? 'Load the changed skill' : 'Load skill'}{' '}
            <SafeName className="consent-server" name={payload.skill} />?
          </>
        )
      }
      error={error}
      footer={
        <>
          <Button variant="danger" onClick={() => void answer({ decision: 'deny' })} disabled={busy}>
            Don’t load
          </Button>
          <div className="spacer" />
          <Button variant="primary" onClick={() => void answer({ decision: 'allow' })} disabled={busy}>
            {crossServer ? 'Allow' : payload.changed ? 'Load changed skill' : 'Load skill'}
          </Button>
        </>
      }
    >
      <div className="skill-approval">
        <p className="skill-approval-intro">
          {payload.requestedBy === 'model' ? 'The model wants to read' : 'You picked'} this skill from{' '}
          <strong>
            <SafeName name={request.server} />
          </strong>
          : instructions written by that server, which the model will follow in this conversation. Berth checks every
          file against the server’s manifest (SHA-256 and size) before the model sees it.
        </p>
        {payload.changed ? (
          <p className="skill-approval-warning" role="note">
            This skill changed on the server since you allowed it (its files or description are not the ones you
            approved).
          </p>
        ) : null}
        {payload.sameNameOn.length > 0 ? (
          <p className="skill-approval-warning" role="note">
            {payload.sameNameOn.map((server, index) => (
              <span key={server}>
                {index > 0 ? ', ' : null}
                <SafeName name={server} />
              </span>
            ))}{' '}
            also {payload.sameNameOn.length === 1 ? 'offers' : 'offer'} a skill of this name. Berth keeps them apart:
            this one is{' '}
            <strong>
              <SafeName name={payload.skill} />
            </strong>
            .
          </p>
        ) : null}
        {payload.expectsTools !== undefined && payload.expectsTools.length > 0 ? (
          <div className="skill-approval-expects" role="note" aria-label="Tools this skill expects">
            <p>
              This skill expects to use:{' '}
              {payload.expectsTools.map((name, index) => (
                <span key={`${index}:${name}`}>
                  {index > 0 ? ', ' : null}
                  <code>
                    <SafeName name={name} />
                  </code>
                </span>
              ))}
            </p>
            <p className="field-hint">
              As the server wrote it: this grants nothing. Each tool call still asks for your consent.
            </p>
          </div>
        ) : null}
        {crossServer ? (
          <>
            <p>Its text directs the model to other servers. Allow it to steer the model toward:</p>
            <ul className="skill-approval-refs" aria-label="Other servers it refers to">
              {payload.crossReferences.map((reference) => (
                <li key={reference.server}>
                  <strong>
                    <SafeName name={reference.server} />
                  </strong>
                  {reference.tools.length > 0 ? (
                    <>
                      {' '}
                      — tools{' '}
                      {reference.tools.map((tool, index) => (
                        <span key={tool}>
                          {index > 0 ? ', ' : null}
                          <SafeName name={tool} />
                        </span>
                      ))}
                    </>
                  ) : null}
                  {reference.roots.length > 0 ? <> — folders {reference.roots.join(', ')}</> : null}
                </li>
              ))}
            </ul>
            <p className="field-hint">Each tool call still asks for your consent on its own.</p>
          </>
        ) : (
          <>
            <p className="skill-approval-description">{payload.description}</p>
            <p className="field-hint">
              {payload.files.length} {payload.files.length === 1 ? 'file' : 'files'}, {formatBytes(payload.totalBytes)}{' '}
              — fetched only when the model needs them:
            </p>
            <ul className="skill-approval-files" aria-label="Files">
              {payload.files.map((file) => (
                <li key={file.uri}>
                  <code>{file.path}</code> <span className="muted">{formatBytes(file.size)}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </PendingFrame>
  );
}
