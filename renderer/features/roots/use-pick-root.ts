import { useCallback } from 'react';
import { useBerth } from '../../store';
import { needsBroadConfirmation } from './roots-model';
import type { Failure } from '../../../shared/result';
import { words } from '../../i18n/words';

/**
 * What "Add folder" does: the system's folder dialog on the desktop, the
 * server-side folder browser in browser mode (a web page cannot read paths).
 * A folder as broad as / or home is not added: `confirmBroad` gets the path
 * and the host's warning (the failure, worded where it is shown), to ask the person.
 */
export function usePickRoot(
  openBrowser: () => void,
  confirmBroad: (path: string, warning: Failure) => void,
): () => void {
  const shell = useBerth((s) => s.appInfo?.shell);
  const pickFolder = useBerth((s) => s.pickFolder);
  const addRoot = useBerth((s) => s.addRoot);
  const pushToast = useBerth((s) => s.pushToast);
  const toastFailure = useBerth((s) => s.toastFailure);
  return useCallback(() => {
    if (shell !== 'electron') {
      openBrowser();
      return;
    }
    void (async () => {
      const picked = await pickFolder();
      if (!picked.ok) {
        toastFailure(words('roots.toast.dialogFailed'), picked);
        return;
      }
      if (picked.value.path === null) return;
      const added = await addRoot(picked.value.path);
      if (added.ok) pushToast({ tone: 'success', title: words('roots.toast.added', { name: added.value.name }) });
      else if (needsBroadConfirmation(added)) confirmBroad(picked.value.path, added);
      else toastFailure(words('roots.toast.addFailed'), added);
    })();
  }, [shell, openBrowser, pickFolder, addRoot, pushToast, toastFailure, confirmBroad]);
}
