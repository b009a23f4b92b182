import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { isTerminalTaskStatus } from '../../../shared/domain/task';
import { useBerth } from '../../store';
import { useNow } from '../servers/use-now';
import { Button, EmptyState, InlineAlert } from '../../ui/controls';
import { TasksIcon, TrashIcon } from '../../ui/icons';
import { TaskRow } from './task-row';
import { List } from '../../ui/list';
import { useT } from '../../i18n/use-t';

/**
 * Every running and recent MCP task across servers: tool calls a server runs
 * as a task, and requests a server asked Berth to run in the background.
 * Running ones first, then the finished ones until the person clears them.
 */
export function TasksView() {
  const t = useT();
  const tasks = useBerth((s) => s.tasks);
  const loaded = useBerth((s) => s.tasksLoaded);
  const error = useBerth((s) => s.tasksError);
  const loadTasks = useBerth((s) => s.loadTasks);
  const clearFinished = useBerth((s) => s.clearFinishedTasks);
  // The list array only changes with the list: a title map built in a selector would be rebuilt on every store update.
  const conversationList = useBerth((s) => s.conversations);
  const conversationsLoaded = useBerth((s) => s.conversationsLoaded);
  const titles = useMemo(() => new Map(conversationList.map((c) => [c.id, c.title])), [conversationList]);
  const running = tasks.filter((task) => !isTerminalTaskStatus(task.status));
  const finished = tasks.filter((task) => isTerminalTaskStatus(task.status));
  // Ages read "42 s ago": tick every second while there is anything to age.
  const now = useNow(tasks.length > 0, 1000);
  const page = useRef<HTMLDivElement>(null);
  useFocusRequestedTask(page, loaded);

  if (!loaded) {
    return error !== undefined ? (
      <div className="tasks-view">
        <div className="tasks-page">
          <InlineAlert
            action={
              <Button size="sm" onClick={() => void loadTasks()}>
                {t('tasks.view.retry')}
              </Button>
            }
          >
            {t('tasks.view.readFailed', { error })}
          </InlineAlert>
        </div>
      </div>
    ) : (
      <p className="view-loading">{t('tasks.view.loading')}</p>
    );
  }

  const rows = (list: typeof tasks) =>
    list.map((task) => (
      <TaskRow
        key={task.id}
        task={task}
        conversationTitle={task.conversationId !== undefined ? titles.get(task.conversationId) : undefined}
        conversationsLoaded={conversationsLoaded}
        now={now}
      />
    ));

  return (
    <div className="tasks-view">
      <div className="tasks-page" ref={page}>
        {tasks.length === 0 ? (
          <EmptyState icon={<TasksIcon />} title={t('tasks.view.empty')}>
            <p>{t('tasks.view.emptyWhat')}</p>
            <p>{t('tasks.view.emptyHow')}</p>
          </EmptyState>
        ) : (
          <>
            <section className="tasks-section" aria-labelledby="tasks-running-title">
              <header className="tasks-section-head">
                <h2 id="tasks-running-title">{t('tasks.view.running')}</h2>
                <span className="tasks-count">{running.length}</span>
              </header>
              <List
                aria-label={t('tasks.view.runningList')}
                empty={<p className="tasks-none">{t('tasks.view.noneRunning')}</p>}
              >
                {rows(running)}
              </List>
            </section>
            <section className="tasks-section" aria-labelledby="tasks-finished-title">
              <header className="tasks-section-head">
                <h2 id="tasks-finished-title">{t('tasks.view.finished')}</h2>
                <span className="tasks-count">{finished.length}</span>
                <div className="spacer" />
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<TrashIcon />}
                  onClick={() => void clearFinished()}
                  disabled={finished.length === 0}
                >
                  {t('tasks.view.clearFinished')}
                </Button>
              </header>
              <List
                aria-label={t('tasks.view.finishedList')}
                empty={<p className="tasks-none">{t('tasks.view.noneFinished')}</p>}
              >
                {rows(finished)}
              </List>
            </section>
          </>
        )}
      </div>
    </div>
  );
}

/** "Open in Tasks" on a tool card: the task's row is scrolled into view and focused, once the list is there. */
function useFocusRequestedTask(page: RefObject<HTMLDivElement | null>, loaded: boolean) {
  const taskFocus = useBerth((s) => s.taskFocus);
  const clearTaskFocus = useBerth((s) => s.clearTaskFocus);
  useEffect(() => {
    if (taskFocus === undefined || !loaded) return;
    const row = [...(page.current?.querySelectorAll<HTMLElement>('[data-task]') ?? [])].find(
      (element) => element.dataset.task === taskFocus,
    );
    row?.focus();
    row?.scrollIntoView({ block: 'nearest' });
    // Cleared either way: a task that is gone (cleared, expired) has no row to show.
    clearTaskFocus();
  }, [taskFocus, loaded, clearTaskFocus]);
}
