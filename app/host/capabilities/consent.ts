import { createConsentHandlers } from '../../bridge/handlers-consent';
import { createElicitationHandlers } from '../../bridge/handlers-elicitation';
import { createPendingHandlers } from '../../bridge/handlers-pending';
import { createSamplingHandlers } from '../../bridge/handlers-sampling';
import { ConsentBroker } from '../../consent/consent-broker';
import { ServerFacts } from '../../consent/server-facts';
import { ServerQuestions } from '../../consent/server-questions';
import { defaultOpenExternal } from '../../default-open-external';
import { awaitingView } from '../../elicitation/awaiting-view';
import { ElicitationFlow } from '../../elicitation/elicitation-flow';
import { PendingRequests } from '../../pending/pending-requests';
import { RunningToolCalls } from '../../pending/running-tool-calls';
import { WindowGrace } from '../../pending/window-grace';
import { SamplingService } from '../../sampling/sampling-service';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';
import { withdrawal } from '../../../shared/domain/withdrawal';

/**
 * Everything that waits for the person: the pending queue, tool-call consent,
 * sampling review and elicitation, the client handlers that feed them, and
 * the rules that keep nothing waiting forever (server gone, window gone,
 * Berth quitting).
 */
export const consentModule: HostModule<HostContext> = {
  name: 'consent',
  phase: 'services',
  open(context, scope) {
    const { services, options, events, lifecycle, reportBug } = context;
    const logs = services.get('logs');
    const pending = services.provide('pending', new PendingRequests());
    // Forwarding first, so a request refused at once (no window) is announced as opened before it is withdrawn.
    pending.onChange((change) => events.emit('pending.changed', change));
    // After the forwarding: a card's "Answer" button names a request the window has already heard of.
    const toolCalls = services.provide('toolCalls', new RunningToolCalls(pending));
    const windows = services.provide('windows', new WindowGrace(pending, options.clientGraceMs));
    const facts = new ServerFacts();
    const consent = services.provide(
      'consent',
      new ConsentBroker({ stateDir: context.paths.stateDir, pending, logs, serverNow: (server) => facts.now(server) }),
    );
    consent.onPoliciesChange((policies) => events.emit('consent.policiesChanged', { policies }));
    const sampling = services.provide(
      'sampling',
      new SamplingService({
        pending,
        toolCalls,
        logs,
        events,
        settings: services.get('settings'),
        anthropic: services.get('anthropic'),
        ...services.get('samplingModels'),
        reportError: reportBug,
      }),
    );
    const openExternal = services.provide('openExternal', options.openExternal ?? defaultOpenExternal(options.shell));
    const flow = services.provide('elicitation', new ElicitationFlow({ pending, logs, openExternal }));
    flow.onAwaitingChange((awaiting) =>
      events.emit('elicitation.awaitingChanged', { awaiting: awaitingView(awaiting) }),
    );
    // Facts before questions: a changed server's permissions are re-checked against its new state.
    lifecycle.register(facts);
    lifecycle.register(
      services.provide(
        'questions',
        new ServerQuestions({ pending, consent, sampling, flow, toolCalls, reportError: reportBug }),
      ),
    );
    context.bridgeHandlers.register(scope.module, () => ({
      ...createPendingHandlers(pending),
      ...createConsentHandlers(consent),
      ...createSamplingHandlers({
        budget: sampling.budget,
        review: sampling.review,
        settings: services.get('settings'),
        servers: services.get('supervisor'),
        models: sampling.models,
      }),
      ...createElicitationHandlers(flow),
    }));
    // Prompts first: a turn waiting for a yes then ends with a denial, and stops at once when chat closes.
    scope.onStopping(async () => {
      windows.close();
      pending.withdrawAll(withdrawal('withdrawal.berth-quit', {}));
      await consent.close();
    });
    // Until the stored policies are read, every tool call simply asks (the safe default).
    consent.load().catch((error: unknown) => reportBug('reading the consent policies failed', error));
  },
};
