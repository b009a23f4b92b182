import { useEffect, useState } from 'react';
import type { ClaudeDesktopExport } from '../../../shared/contract/config-import';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { ArrowDownIcon, CopyIcon, KeyIcon } from '../../ui/icons';
import { errorMessage } from '../../../shared/error-message';
import type { Failure } from '../../../shared/result';
import { failureText } from '../../i18n/host-message';
import { Dialog, DialogBody, DialogDescription, DialogHeader } from '../../ui/dialog';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { words } from '../../i18n/words';

/** "Export…": Berth's servers as a Claude Desktop config, to copy or save; secret values are left out. */
export function ExportDialog() {
  const t = useT();
  const open = useBerth((s) => s.interopDialog === 'export');
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && openInteropDialog(undefined)}
      className="dialog-wide"
      aria-describedby="export-dialog-description"
    >
      <DialogHeader title={t('config-import.export.title')} />
      <DialogDescription id="export-dialog-description">
        <T id="config-import.export.description" components={{ code: <code /> }} />
      </DialogDescription>
      {open ? <ExportBody /> : null}
    </Dialog>
  );
}

function saveText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

function ExportBody() {
  const t = useT();
  const exportClaudeDesktop = useBerth((s) => s.exportClaudeDesktop);
  const pushToast = useBerth((s) => s.pushToast);
  const [result, setResult] = useState<ClaudeDesktopExport>();
  const [failure, setFailure] = useState<Failure>();

  useEffect(() => {
    let current = true;
    void exportClaudeDesktop().then((answer) => {
      if (!current) return;
      if (answer.ok) setResult(answer.value);
      else setFailure(answer);
    });
    return () => {
      current = false;
    };
  }, [exportClaudeDesktop]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      pushToast({ tone: 'success', title: words('config-import.export.copied') });
    } catch (copyError) {
      pushToast({
        tone: 'error',
        title: words('config-import.export.copyFailed'),
        message: words('config-import.export.copyFailedMessage', { error: errorMessage(copyError) }),
      });
    }
  }

  return (
    <>
      <DialogBody>
        {failure ? (
          <InlineAlert>{t('config-import.export.failed', { error: failureText(failure) })}</InlineAlert>
        ) : result === undefined ? (
          <p className="muted">{t('config-import.export.preparing')}</p>
        ) : (
          <>
            {result.omittedSecrets.length > 0 ? (
              <div className="inline-alert warn export-secrets" role="note">
                <KeyIcon />
                <div>
                  <p>{t('config-import.export.secretsLeftOut')}</p>
                  <ul>
                    {result.omittedSecrets.map((secret) => (
                      <li key={`${secret.server}/${secret.key}`}>
                        <T
                          id="config-import.export.secretOf"
                          values={{ key: secret.key, server: secret.server }}
                          components={{ code: <code /> }}
                        />
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
            ) : null}
            <p className="muted">{t('config-import.export.count', { count: result.serverCount })}</p>
            <textarea
              className="input mono export-text"
              readOnly
              value={result.text}
              rows={14}
              aria-label={t('config-import.export.text')}
              spellCheck={false}
            />
          </>
        )}
      </DialogBody>
      <footer className="dialog-footer">
        <Button icon={<CopyIcon />} disabled={result === undefined} onClick={() => result && void copy(result.text)}>
          {t('config-import.export.copy')}
        </Button>
        <Button
          variant="primary"
          icon={<ArrowDownIcon />}
          disabled={result === undefined}
          onClick={() => result && saveText(result.text, result.fileName)}
        >
          {result === undefined
            ? t('config-import.export.saveFile')
            : t('config-import.export.saveNamed', { file: result.fileName })}
        </Button>
      </footer>
    </>
  );
}
