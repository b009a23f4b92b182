import { Button } from '../../ui/controls';
import { DialogFooter } from '../../ui/dialog';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../ui/alert-dialog';

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
  return (
    <AlertDialog
      open={link !== undefined}
      onOpenChange={(open) => (open ? undefined : onAnswer(false))}
      className="dialog-narrow"
    >
      <AlertDialogTitle>Open a link from the app?</AlertDialogTitle>
      <AlertDialogDescription>
        The app of “{server}” wants to open a page in your browser on{' '}
        <strong className="app-link-domain">{link?.domain}</strong>.
      </AlertDialogDescription>
      <p className="app-link-url">
        <span className="args-caption">Full address</span>
        <code className="wrap">{link?.url}</code>
      </p>
      <DialogFooter>
        <AlertDialogCancel>
          <Button variant="ghost">Don’t open</Button>
        </AlertDialogCancel>
        <AlertDialogAction>
          <Button variant="primary" onClick={() => onAnswer(true)}>
            Open {link?.domain}
          </Button>
        </AlertDialogAction>
      </DialogFooter>
    </AlertDialog>
  );
}
