import type { FastifyBaseLogger } from 'fastify';
import { errors } from '../shared/errors.js';
import type { ChannelProvider, WhatsappFlowsApi } from './provider.js';
import { readSample, sampleOf } from './simulator.samples.js';

/** The simulator's delivery receipts, after the send. */
const SIMULATED_DELIVERY_MS = 1_000;
const SIMULATED_READ_MS = 3_000;
/** The simulator approves a submitted template after this long, as Meta's review would (durably: a job). */
export const SIMULATED_REVIEW_MS = 10_000;

/** Where the simulator's receipts go: the same path as Meta's status webhooks. */
export interface StatusSink {
  applyStatuses(
    caller: { workspaceId: string },
    updates: { wamid: string; status: 'delivered' | 'read'; errors: [] }[],
  ): Promise<unknown>;
}

/**
 * The built-in channel of a workspace without WhatsApp Cloud: every send is accepted and, a moment
 * later, reported delivered and read, as Meta's status webhooks would. Nothing leaves Parley.
 */
export function createSimulatorProvider(deps: { newId: () => string; statuses: () => StatusSink }) {
  const timers = new Set<NodeJS.Timeout>();
  let log: FastifyBaseLogger | undefined;

  function later(ms: number, run: () => Promise<unknown>): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run().catch((error: unknown) => log?.error({ err: error }, 'simulated receipt failed'));
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  const underReview = (metaTemplateId: string) =>
    ({ outcome: 'accepted', metaTemplateId, status: 'PENDING', reviewsAfterMs: SIMULATED_REVIEW_MS }) as const;

  const notOnWhatsapp = (what: string) => errors.conflict(`${what} WhatsApp Cloud; this workspace uses the simulator`);

  /** Said by the CLI's `templates sync` and the dashboard's Sync alike: what to do, not only what failed. */
  const noTemplatesAtMeta = () =>
    errors.conflict(
      'Templates sync needs a WhatsApp Cloud number: this workspace sends through the simulator, which has no ' +
        'templates at Meta. Connect a number (Settings → Channel, or `parley channel set --provider whatsapp-cloud`) first',
    );

  /** Refuses at the first item asked for, as a channel with no templates to sync. */
  const syncTemplates = (): AsyncIterable<never> => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(noTemplatesAtMeta()) }),
  });

  /** WhatsApp Flows live in a WhatsApp Business Account at Meta: the simulator has none. */
  const noFlows = () => Promise.reject(notOnWhatsapp('WhatsApp Flows are made on'));
  const whatsappFlows: WhatsappFlowsApi = {
    create: noFlows,
    uploadJson: noFlows,
    publish: noFlows,
    deprecate: noFlows,
    delete: noFlows,
    get: noFlows,
    list: () => ({ [Symbol.asyncIterator]: () => ({ next: noFlows }) }),
  };

  return {
    /** The simulator as the channel of one workspace (its receipts are that workspace's). */
    forWorkspace(workspaceId: string): ChannelProvider {
      return {
        simulated: true,
        pace: null,
        send() {
          const wamid = `wamid.SIMULATED.${deps.newId()}`;
          const receipt = (status: 'delivered' | 'read') => () =>
            deps.statuses().applyStatuses({ workspaceId }, [{ wamid, status, errors: [] }]);
          later(SIMULATED_DELIVERY_MS, receipt('delivered'));
          later(SIMULATED_READ_MS, receipt('read'));
          return Promise.resolve({ outcome: 'accepted', providerMessageId: wamid });
        },
        syncTemplates,
        // Only the samples a simulated customer sent (simulator.samples.ts); any other id is Meta's.
        fetchMedia: (mediaId) => {
          const sample = sampleOf(mediaId);
          return sample ? readSample(sample) : Promise.reject(notOnWhatsapp('Media is downloaded from'));
        },
        markRead: () => Promise.resolve(),
        // Nothing leaves Parley: the simulator's media ids are its own, kept like Meta's.
        uploadMedia: () => Promise.resolve(`simulated-${deps.newId()}`),
        submitTemplate: (template) =>
          'library_template_name' in template
            ? Promise.reject(notOnWhatsapp("Templates from Meta's Template Library are made on"))
            : Promise.resolve(underReview(`simulated-${deps.newId()}`)),
        // The simulator keeps no templates of its own: only a library template is read back, and it has none.
        template: () => Promise.reject(notOnWhatsapp('Templates are read from')),
        editTemplate: (metaTemplateId) => Promise.resolve(underReview(metaTemplateId)),
        deleteTemplate: () => Promise.resolve({ outcome: 'deleted' }),
        createGroup: () => Promise.reject(notOnWhatsapp('Groups are created on')),
        groupInviteLink: () => Promise.reject(notOnWhatsapp('Group invite links come from')),
        // Nothing leaves Parley: a key is taken as Meta takes one, signed at once.
        setFlowsPublicKey: () => Promise.resolve(),
        flowsPublicKey: () => Promise.resolve({ publicKey: null, signatureStatus: 'VALID' }),
        whatsappFlows,
      };
    },

    start(logger: FastifyBaseLogger): void {
      log = logger;
    },

    /** Drops the receipts not yet reported. */
    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type SimulatorProvider = ReturnType<typeof createSimulatorProvider>;
