import { useEffect, useState } from 'react';
import type { ClaudeDesktopExport } from '../../../shared/contract/config-import';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { ArrowDownIcon, CopyIcon, KeyIcon } from '../../ui/icons';
import { errorMessage } from '../../../shared/error-message';
import { Dialog, DialogBody, DialogDescription, DialogHeader } from '../../ui/dialog';

/** "Export…": Berth's servers as a Claude Desktop config, to copy or save; secret values are left out. */
export function ExportDialog() {
  const open = useBerth((s) => s.interopDialog === 'export');
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && openInteropDialog(undefined)}
      className="dialog-wide"
      aria-describedby="export-dialog-description"
      focusSelf
    >
      <DialogHeader title="Export for Claude Desktop" />
      <DialogDescription id="export-dialog-description">
        Your servers in the shape of <code>claude_desktop_config.json</code>, which Cursor reads too. Berth-only
        settings are not included.
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
  const exportClaudeDesktop = useBerth((s) => s.exportClaudeDesktop);
  const pushToast = useBerth((s) => s.pushToast);
  const [result, setResult] = useState<ClaudeDesktopExport>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    void exportClaudeDesktop().then((answer) => {
      if (!current) return;
      if (answer.ok) setResult(answer.value);
      else setError(answer.message);
    });
    return () => {
      current = false;
    };
  }, [exportClaudeDesktop]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      pushToast({ tone: 'success', title: 'Copied the config' });
    } catch (copyError) {
      pushToast({
        tone: 'error',
        title: 'Could not copy',
        message: `${errorMessage(copyError)}. Select the text and copy it instead.`,
      });
    }
  }

  return (
    <>
      <DialogBody>
        {error ? (
          <InlineAlert>Could not export: {error}</InlineAlert>
        ) : result === undefined ? (
          <p className="muted">Preparing the export…</p>
        ) : (
          <>
            {result.omittedSecrets.length > 0 ? (
              <div className="inline-alert warn export-secrets" role="note">
                <KeyIcon />
                <div>
                  <p>Secret values are left out; enter them again in the other app:</p>
                  <ul>
                    {result.omittedSecrets.map((secret) => (
                      <li key={`${secret.server}/${secret.key}`}>
                        <code>{secret.key}</code> of {secret.server}
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
            ) : null}
            <p className="muted">{result.serverCount === 1 ? '1 server' : `${result.serverCount} servers`}</p>
            <textarea
              className="input mono export-text"
              readOnly
              value={result.text}
              rows={14}
              aria-label="Exported config"
              spellCheck={false}
            />
          </>
        )}
      </DialogBody>
      <footer className="dialog-footer">
        <Button icon={<CopyIcon />} disabled={result === undefined} onClick={() => result && void copy(result.text)}>
          Copy
        </Button>
        <Button
          variant="primary"
          icon={<ArrowDownIcon />}
          disabled={result === undefined}
          onClick={() => result && saveText(result.text, result.fileName)}
        >
          Save {result?.fileName ?? 'file'}
        </Button>
      </footer>
    </>
  );
}
