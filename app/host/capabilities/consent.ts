import { defaultOpenExternal } from '../../default-open-external';
import { HostWorkflow } from '../../host-workflow';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Everything that waits for the person: the pending queue, tool-call consent, sampling review and elicitation. */
export const consentModule: HostModule<HostContext> = {
  name: 'consent',
  phase: 'services',
  open(context, scope) {
    const { services, options } = context;
    const openExternal = services.provide('openExternal', options.openExternal ?? defaultOpenExternal(options.shell));
    const workflow = services.provide(
      'workflow',
      new HostWorkflow({
        stateDir: context.paths.stateDir,
        logs: services.get('logs'),
        events: context.events,
        settings: services.get('settings'),
        anthropic: services.get('anthropic'),
        ...services.get('samplingModels'),
        openExternal,
        ...(options.clientGraceMs !== undefined ? { clientGraceMs: options.clientGraceMs } : {}),
        reportError: context.reportBug,
      }),
    );
    context.lifecycle.register(workflow);
    // Prompts first: a turn waiting for a yes then ends with a denial, and stops at once when chat closes.
    scope.onStopping(() => workflow.close());
    // Until the stored policies are read, every tool call simply asks (the safe default).
    workflow.consent.load().catch((error: unknown) => context.reportBug('reading the consent policies failed', error));
  },
};
