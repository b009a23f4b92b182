import { Button } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../ui/alert-dialog';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/** The question before a link an app asked for is opened: the domain plainly, then the whole address. */
export function OpenLinkDialog({
  link,
  server,
  onAnswer,
}: {
  link: { url: string; domain: string } | undefined;
  server: string;
  onAnswer: (open: boolean) => void;
}) {
  const t = useT();
  return (
    <AlertDialog
      open={link !== undefined}
      onOpenChange={(open) => (open ? undefined : onAnswer(false))}
      className="dialog-narrow"
    >
      <AlertDialogTitle>{t('apps.link.title')}</AlertDialogTitle>
      <AlertDialogDescription>
        <T
          id="apps.link.body"
          values={{ server, domain: link?.domain ?? '' }}
          components={{ domain: <strong className="app-link-domain" /> }}
        />
      </AlertDialogDescription>
      <p className="app-link-url">
        <span className="args-caption">{t('apps.link.address')}</span>
        <code className="wrap">{link?.url}</code>
      </p>
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">{t('apps.link.cancel')}</Button>
        </AlertDialogCancel>
        <AlertDialogAction>
          <Button variant="primary" onClick={() => onAnswer(true)}>
            {t('apps.link.open', { domain: link?.domain ?? '' })}
          </Button>
        </AlertDialogAction>
      </DialogFooter>
    </AlertDialog>
  );
}
