import { Button } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { BookIcon } from '../../ui/icons';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';
import { formatBytes } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * A server's skill is about to reach the model. Skills are the server's
 * words steering the model, so the first load asks, and so does any change
 * to the skill's files (the approval is bound to their digests). A second
 * question comes when the skill's text names another server's tools or folders.
 */
export function SkillApprovalDialog({ request, answer, busy, error }: PendingDialogProps<'skill'>) {
  const t = useT();
  const separator = t('pending.tray.separator');
  const { payload } = request;
  const crossServer = payload.stage === 'cross-server';
  return (
    <PendingFrame
      request={request}
      icon={<BookIcon />}
      title={
        <T
          id={
            crossServer
              ? 'pending.skill.crossTitle'
              : payload.changed
                ? 'pending.skill.loadChangedTitle'
                : 'pending.skill.loadTitle'
          }
          components={{ skill: <SafeName className="consent-server" name={payload.skill} /> }}
        />
      }
      error={error}
      footer={
        <>
          <Button variant="danger" {...SAFE_CHOICE} onClick={() => void answer({ decision: 'deny' })} disabled={busy}>
            {t('pending.skill.dontLoad')}
          </Button>
          <div className="spacer" />
          <Button variant="primary" onClick={() => void answer({ decision: 'allow' })} disabled={busy}>
            {t(
              crossServer
                ? 'pending.skill.allow'
                : payload.changed
                  ? 'pending.skill.loadChanged'
                  : 'pending.skill.load',
            )}
          </Button>
        </>
      }
    >
      <div className="skill-approval">
        <p className="skill-approval-intro">
          <T
            id="pending.skill.intro"
            values={{ who: payload.requestedBy === 'model' ? 'model' : 'person' }}
            components={{
              server: (
                <strong>
                  <SafeName name={request.server} />
                </strong>
              ),
            }}
          />
        </p>
        {payload.changed ? (
          <p className="skill-approval-warning" role="note">
            {t('pending.skill.changed')}
          </p>
        ) : null}
        {payload.sameNameOn.length > 0 ? (
          <p className="skill-approval-warning" role="note">
            <T
              id="pending.skill.sameName"
              values={{ count: payload.sameNameOn.length }}
              components={{
                servers: (
                  <>
                    {payload.sameNameOn.map((server, index) => (
                      <span key={server}>
                        {index > 0 ? separator : null}
                        <SafeName name={server} />
                      </span>
                    ))}
                  </>
                ),
                skill: (
                  <strong>
                    <SafeName name={payload.skill} />
                  </strong>
                ),
              }}
            />
          </p>
        ) : null}
        {payload.expectsTools !== undefined && payload.expectsTools.length > 0 ? (
          <div className="skill-approval-expects" role="note" aria-label={t('pending.skill.expectsLabel')}>
            <p>
              <T
                id="pending.skill.expects"
                components={{
                  tools: (
                    <>
                      {payload.expectsTools.map((name, index) => (
                        <span key={`${index}:${name}`}>
                          {index > 0 ? separator : null}
                          <code>
                            <SafeName name={name} />
                          </code>
                        </span>
                      ))}
                    </>
                  ),
                }}
              />
            </p>
            <p className="field-hint">{t('pending.skill.grantsNothing')}</p>
          </div>
        ) : null}
        {crossServer ? (
          <>
            <p>{t('pending.skill.crossIntro')}</p>
            <ul className="skill-approval-refs" aria-label={t('pending.skill.crossList')}>
              {payload.crossReferences.map((reference) => (
                <li key={reference.server}>
                  <strong>
                    <SafeName name={reference.server} />
                  </strong>
                  {reference.tools.length > 0 ? (
                    <>
                      {' — '}
                      <T
                        id="pending.skill.refTools"
                        components={{
                          tools: (
                            <>
                              {reference.tools.map((tool, index) => (
                                <span key={tool}>
                                  {index > 0 ? separator : null}
                                  <SafeName name={tool} />
                                </span>
                              ))}
                            </>
                          ),
                        }}
                      />
                    </>
                  ) : null}
                  {reference.roots.length > 0 ? (
                    <>
                      {' — '}
                      {t('pending.skill.refFolders', { folders: reference.roots.join(separator) })}
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
            <p className="field-hint">{t('pending.skill.eachAsks')}</p>
          </>
        ) : (
          <>
            <p className="skill-approval-description">{payload.description}</p>
            <p className="field-hint">
              {t('pending.skill.files', { count: payload.files.length, size: formatBytes(payload.totalBytes) })}
            </p>
            <ul className="skill-approval-files" aria-label={t('pending.skill.fileList')}>
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
