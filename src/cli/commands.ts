import fs from 'node:fs/promises';
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { lowercaseIds } from '../http/responses.js';
import { CreateCampaignBody, ListCampaignsBody } from '../campaigns/index.js';
import { ConfigError, type Config } from '../config.js';
import type { Services } from '../services.js';
import type { OpenOptions } from '../db/connection.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { AddChannelBody, newChannelOf } from '../channels/index.js';
import { errors } from '../shared/errors.js';
import { registerFormats } from '../shared/formats.js';
import { unstorableJson } from '../shared/storable-json.js';
import { formatTimestamp } from '../shared/time.js';
import { CreateWebhookBody, ListDeliveriesBody } from '../outgoing/index.js';
import { CreateTemplateBody } from '../templates/index.js';
import { ImportRateCardBody } from '../reports/index.js';
import { CSV_EXPORT_OPTIONS, CSV_IMPORT_OPTIONS, isCsvFile } from './contact-csv.options.js';
import { BACKUP_COMMANDS } from './backup.commands.js';

export interface CommandInput {
  config: Config;
  /** Opens the database (migrated) and builds every service on first use. */
  services: (options?: OpenOptions) => Promise<Services>;
  /** Opens the database (migrated) alone: for a command that builds the one service it needs. */
  deps: () => Promise<Deps>;
  options: Record<string, string | undefined>;
  positionals: string[];
}

/** One `parley` command: its words, options and what it does; each returns the JSON it prints. */
export interface Command {
  name: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  required?: string[];
  positionals?: number;
  run(input: CommandInput): Promise<unknown>;
}

const text = { type: 'string' } as const;

/** The options that describe a channel, for `channel set` and `channel add`. */
const channelOptions = {
  workspace: text,
  provider: text,
  'phone-number-id': text,
  'waba-id': text,
  'access-token': text,
  'messages-per-second': text,
} as const;

function integerOption(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw errors.validation(field, 'must be a whole number');
  return Number(value);
}

/** `channel set` and `channel add` options as the add-channel request body. */
function channelBodyOf(options: Record<string, string | undefined>) {
  return {
    provider: options.provider,
    phone_number_id: options['phone-number-id'],
    waba_id: options['waba-id'],
    access_token: options['access-token'],
    messages_per_second: integerOption(options['messages-per-second'], 'messages-per-second'),
  };
}

/** A JSON option value (e.g. --variables '["Ada","ORD-1"]'), held to the same rules as a request body. */
function jsonOption(value: string, field: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw errors.validation(field, 'must be JSON, e.g. ["Ada","ORD-1"]');
  }
  const problems = unstorableJson(parsed);
  if (problems.length > 0) {
    throw errors.invalid(...problems.map(({ path, at }) => at([field, ...path].join('.'))));
  }
  return parsed;
}

/** The CLI's input checked against the same schema the API validates with; problems name their path. */
function checked<T extends TSchema>(schema: T, value: unknown): Static<T> {
  registerFormats();
  if (Value.Check(schema, value)) return lowercaseIds(schema, value);
  const problems = [...Value.Errors(schema, value)].map((error) => ({
    field: error.path || '/',
    message: error.message,
  }));
  throw errors.invalid(...problems.slice(0, 10));
}

const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/**
 * An id option, lower-cased as ids are stored. Checked here because PostgreSQL's uuid column
 * refuses a malformed id with a raw database error, where SQLite would answer not_found.
 */
function idOption(value: string, field: string): string {
  if (!UUID.test(value)) throw errors.validation(field, 'must be an id (a UUID)');
  return value.toLowerCase();
}

/** The workspace `--workspace` names, checked to exist: a mistyped id is a not_found, not an empty result. */
async function workspaceCaller(services: Services, id: string): Promise<Caller> {
  const caller = { workspaceId: idOption(id, 'workspace') };
  await services.workspaces.get(caller.workspaceId);
  return caller;
}

/** The run of a command for one workspace: `--workspace`, checked to exist, becomes the caller. */
function inWorkspace(
  run: (services: Services, caller: Caller, options: CommandInput['options']) => Promise<unknown>,
): Command['run'] {
  return async ({ services: open, options }) => {
    const services = await open();
    return run(services, await workspaceCaller(services, options.workspace!), options);
  };
}

async function readTextFile(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    throw errors.validation(file, `cannot be read (${(error as Error).message})`);
  }
}

async function readJsonFile(file: string): Promise<unknown> {
  const raw = await readTextFile(file);
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw errors.validation(file, `is not valid JSON (${(error as Error).message})`);
  }
}

/** The workspace and token services alone (imported on use, without the rest of the application). */
async function tokenServices(deps: Deps) {
  const [{ createWorkspaceService }, { createTokenService }] = await Promise.all([
    import('../workspaces/workspace.service.js'),
    import('../workspaces/token.service.js'),
  ]);
  return { workspaces: createWorkspaceService(deps), tokens: createTokenService(deps) };
}

/** Every `parley` command. */
export const COMMANDS: Command[] = [
  {
    name: 'setup',
    usage: '--workspace NAME --email EMAIL --password PW [--name "YOUR NAME"]',
    options: { workspace: text, email: text, password: text, name: text },
    required: ['workspace', 'email', 'password'],
    async run({ deps, options }) {
      const { createWorkspaceService } = await import('../workspaces/workspace.service.js');
      const { workspace, user } = await createWorkspaceService(await deps()).setup({
        name: options.workspace!,
        email: options.email!,
        password: options.password!,
        ownerName: options.name,
      });
      return {
        workspace: { id: workspace.id, name: workspace.name, created_at: formatTimestamp(workspace.created_at) },
        user: { id: user.id, email: user.email, name: user.name, role: user.role },
      };
    },
  },
  {
    name: 'token create',
    usage: '--workspace ID [--name NAME] [--scope full|read] [--mode direct|approval] [--approval-timeout MINUTES]',
    options: { workspace: text, name: text, scope: text, mode: text, 'approval-timeout': text },
    required: ['workspace'],
    async run({ deps, options }) {
      const workspaceId = idOption(options.workspace!, 'workspace');
      const scope = options.scope ?? 'full';
      if (scope !== 'full' && scope !== 'read') throw errors.validation('scope', 'must be full or read');
      const mode = options.mode ?? 'direct';
      if (mode !== 'direct' && mode !== 'approval') throw errors.validation('mode', 'must be direct or approval');
      const { workspaces, tokens } = await tokenServices(await deps());
      const owner = await workspaces.owner(workspaceId);
      const issued = await tokens.create({
        workspaceId: owner.workspace_id,
        userId: owner.id,
        name: options.name ?? 'CLI token',
        scope,
        mode,
        approvalTimeoutMinutes: integerOption(options['approval-timeout'], 'approval-timeout'),
      });
      const { id, token, name } = issued;
      return { id, token, name, scope: issued.scope, mode, approval_timeout_minutes: issued.approval_timeout_minutes };
    },
  },
  {
    name: 'token revoke',
    usage: '--id TOKEN_ID',
    options: { id: text },
    required: ['id'],
    async run({ deps, options }) {
      const { tokens } = await tokenServices(await deps());
      const revoked = await tokens.revoke(idOption(options.id!, 'id'));
      return { id: revoked.id, revoked_at: formatTimestamp(revoked.revoked_at) };
    },
  },
  {
    name: 'user reset-password',
    usage: '--email EMAIL',
    options: { email: text },
    required: ['email'],
    async run({ config, services: open, options }) {
      // The server keeps no record of the address users open, and HOST:PORT is only where it listens
      // (127.0.0.1 behind a proxy or in a container): a link to it would not open. Asked before issuing.
      if (!config.publicBaseUrlGiven) {
        throw new ConfigError([
          'the link needs the dashboard’s address: set PUBLIC_BASE_URL to the address users open (e.g. https://parley.example.com)',
        ]);
      }
      const services = await open();
      const reset = await services.passwords.issueReset(options.email!);
      // In the fragment: browsers never send it, so the token stays out of request logs.
      const link = `${config.publicBaseUrl}/reset-password#${reset.token}`;
      return { email: reset.email, link, expires_at: reset.expires_at };
    },
  },
  {
    name: 'import',
    usage:
      '--workspace ID FILE.json | FILE.csv [--columns phone,name,email,tags,opted_out,attribute:KEY,…] [--no-header] [--default-country CC] [--dry-run]',
    options: { workspace: text, ...CSV_IMPORT_OPTIONS },
    required: ['workspace'],
    positionals: 1,
    async run({ services: open, options, positionals }) {
      const workspaceId = idOption(options.workspace!, 'workspace');
      const file = positionals[0]!;
      if (isCsvFile(file)) {
        // Checkpoints on a thread of their own, as the server does: inline, they were a sixth of a long import.
        const services = await open({ backgroundCheckpoints: true });
        const caller = await workspaceCaller(services, workspaceId);
        return (await import('./contact-csv.js')).importCsvFile(services, caller, file, options);
      }
      const document = await readJsonFile(file);
      const services = await open();
      const workspace = await services.workspaces.get(workspaceId);
      return services.portability.import({ workspaceId: workspace.id }, document);
    },
  },
  {
    name: 'export',
    usage: '--workspace ID [--csv [--query TEXT] [--tag TAG]]',
    options: { workspace: text, ...CSV_EXPORT_OPTIONS },
    required: ['workspace'],
    async run({ services: open, options }) {
      const workspaceId = idOption(options.workspace!, 'workspace');
      const services = await open();
      const workspace = await services.workspaces.get(workspaceId);
      // The contacts as CSV go straight to stdout, streamed: nothing is left to print.
      if (options.csv !== undefined)
        return (await import('./contact-csv.js')).exportCsv(services, { workspaceId: workspace.id }, options);
      return services.portability.export({ workspaceId: workspace.id });
    },
  },
  {
    name: 'workspace set',
    usage: '--id ID [--poll-interval SECONDS] [--rate-limit PER_MINUTE] [--name NAME] [--time-zone IANA_ZONE]',
    options: { id: text, 'poll-interval': text, 'rate-limit': text, name: text, 'time-zone': text },
    required: ['id'],
    async run({ services: open, options }) {
      const services = await open();
      const pollIntervalSeconds = integerOption(options['poll-interval'], 'poll-interval');
      const rateLimitPerMinute = integerOption(options['rate-limit'], 'rate-limit');
      const workspace = await services.workspaces.update(idOption(options.id!, 'id'), {
        ...(options.name !== undefined && { name: options.name }),
        ...(pollIntervalSeconds !== undefined && { pollIntervalSeconds }),
        ...(rateLimitPerMinute !== undefined && { rateLimitPerMinute }),
        ...(options['time-zone'] !== undefined && { timeZone: options['time-zone'] }),
      });
      return {
        id: workspace.id,
        name: workspace.name,
        poll_interval_seconds: workspace.poll_interval_seconds,
        rate_limit_per_minute: workspace.rate_limit_per_minute,
        time_zone: workspace.time_zone,
      };
    },
  },
  {
    name: 'channel set',
    usage:
      '--workspace ID --provider simulator | --provider whatsapp-cloud --phone-number-id PNID --waba-id WABA --access-token TOKEN [--messages-per-second N]',
    options: channelOptions,
    required: ['workspace', 'provider'],
    run: inWorkspace(async (services, caller, options) => {
      const settings = newChannelOf(checked(AddChannelBody, channelBodyOf(options)));
      if (settings.provider === 'simulator') return services.channels.useSimulator(caller);
      return services.channels.useWhatsappCloud(caller, settings);
    }),
  },
  {
    name: 'channel list',
    usage: '--workspace ID',
    options: { workspace: text },
    required: ['workspace'],
    run: inWorkspace(async (services, caller) => ({ channels: await services.channels.list(caller) })),
  },
  {
    name: 'channel add',
    usage:
      '--workspace ID --provider whatsapp-cloud --phone-number-id PNID --waba-id WABA --access-token TOKEN [--messages-per-second N] [--default] | --provider simulator [--phone-number-id N] [--default]',
    // `default` is a flag: parseArgs gives `true` when present.
    options: { ...channelOptions, default: { type: 'boolean' } },
    required: ['workspace', 'provider'],
    run: inWorkspace(async (services, caller, options) => {
      const settings = newChannelOf(checked(AddChannelBody, channelBodyOf(options)));
      return services.channels.add(caller, settings, options.default !== undefined);
    }),
  },
  {
    name: 'channel remove',
    usage: '--workspace ID --id CHANNEL_ID',
    options: { workspace: text, id: text },
    required: ['workspace', 'id'],
    run: inWorkspace((services, caller, options) => services.channels.remove(caller, idOption(options.id!, 'id'))),
  },
  {
    name: 'templates sync',
    usage: '--workspace ID',
    options: { workspace: text },
    required: ['workspace'],
    run: inWorkspace((services, caller) => services.templateSync.sync(caller)),
  },
  {
    name: 'templates push',
    usage: '--workspace ID FILE.json',
    options: { workspace: text },
    required: ['workspace'],
    positionals: 1,
    async run({ services: open, options, positionals }) {
      const input = checked(CreateTemplateBody, await readJsonFile(positionals[0]!));
      const services = await open();
      const caller = await workspaceCaller(services, options.workspace!);
      return services.templateSubmission.push(caller, input);
    },
  },
  {
    name: 'rates import',
    usage: '--workspace ID FILE.csv --effective-from YYYY-MM-DD [--currency CODE] [--source TEXT]',
    options: { workspace: text, 'effective-from': text, currency: text, source: text },
    required: ['workspace', 'effective-from'],
    positionals: 1,
    async run({ services: open, options, positionals }) {
      const file = positionals[0]!;
      const input = checked(ImportRateCardBody, {
        csv: await readTextFile(file),
        effective_from: options['effective-from'],
        ...(options.currency !== undefined && { currency: options.currency }),
        source: options.source ?? path.basename(file),
      });
      const services = await open();
      return services.reports.importRateCard(await workspaceCaller(services, options.workspace!), input);
    },
  },
  {
    name: 'ai eval',
    usage: '--workspace ID FILE.json [--json]',
    options: { workspace: text, json: { type: 'boolean' } },
    required: ['workspace'],
    positionals: 1,
    // The file is checked before the database opens: a bad file fails fast.
    async run({ services: open, options, positionals }) {
      const { EvalFile, checkQuestions, runEval } = await import('./ai-eval.js');
      const file = checkQuestions(checked(EvalFile, await readJsonFile(positionals[0]!)));
      const services = await open();
      const caller = await workspaceCaller(services, options.workspace!);
      return runEval(services, caller, file, options.json !== undefined);
    },
  },
  {
    name: 'simulate inbound',
    usage: '--workspace ID --from PHONE --text TEXT',
    options: { workspace: text, from: text, text },
    required: ['workspace', 'from', 'text'],
    run: inWorkspace((services, caller, options) =>
      services.inbound.simulateInbound(caller, { from: options.from!, text: options.text! }),
    ),
  },
  {
    name: 'campaign create',
    usage:
      '--workspace ID --name NAME --template-id ID (--tag TAG | --contact-ids ID,ID… | --search QUERY) [--language CODE] [--variables JSON] [--scheduled-at ISO_TIME] [--from-phone-number-id PNID]',
    options: {
      workspace: text,
      name: text,
      'template-id': text,
      tag: text,
      'contact-ids': text,
      search: text,
      language: text,
      variables: text,
      'scheduled-at': text,
      'from-phone-number-id': text,
    },
    required: ['workspace', 'name', 'template-id'],
    run: inWorkspace(async (services, caller, options) => {
      const audiences = [
        options.tag !== undefined && { tag: options.tag },
        options['contact-ids'] !== undefined && {
          contact_ids: options['contact-ids'].split(',').map((id) => id.trim()),
        },
        options.search !== undefined && { search: { query: options.search } },
      ].filter((audience) => audience !== false);
      if (audiences.length !== 1)
        throw errors.validation('audience', 'give exactly one of --tag, --contact-ids, --search');
      const input = {
        name: options.name!,
        template_id: options['template-id']!,
        audience: audiences[0],
        ...(options.language !== undefined && { language: options.language }),
        ...(options.variables !== undefined && { variables: jsonOption(options.variables, 'variables') }),
        ...(options['scheduled-at'] !== undefined && { scheduled_at: options['scheduled-at'] }),
        ...(options['from-phone-number-id'] !== undefined && { from_phone_number_id: options['from-phone-number-id'] }),
      };
      return services.campaigns.create(caller, checked(CreateCampaignBody, input));
    }),
  },
  {
    name: 'campaign list',
    usage: '--workspace ID [--status scheduled|sending|sent|cancelled|failed]',
    options: { workspace: text, status: text },
    required: ['workspace'],
    run: inWorkspace((services, caller, options) =>
      services.campaigns.list(caller, checked(ListCampaignsBody, { status: options.status ?? '' })),
    ),
  },
  ...(['get', 'cancel'] as const).map((action): Command => ({
    name: `campaign ${action}`,
    usage: '--workspace ID --id CAMPAIGN_ID',
    options: { workspace: text, id: text },
    required: ['workspace', 'id'],
    run: inWorkspace((services, caller, options) =>
      services.campaigns[action](caller, { campaign_id: idOption(options.id!, 'id') }),
    ),
  })),
  {
    name: 'webhook create',
    usage: '--workspace ID --url URL --events EVENT,EVENT…',
    options: { workspace: text, url: text, events: text },
    required: ['workspace', 'url', 'events'],
    run: inWorkspace(async (services, caller, options) => {
      const events = options.events!.split(',').map((event) => event.trim());
      return services.outgoingWebhooks.create(caller, checked(CreateWebhookBody, { url: options.url, events }));
    }),
  },
  {
    name: 'webhook list',
    usage: '--workspace ID',
    options: { workspace: text },
    required: ['workspace'],
    run: inWorkspace((services, caller) => services.outgoingWebhooks.list(caller)),
  },
  {
    name: 'webhook delete',
    usage: '--id WEBHOOK_ID',
    options: { id: text },
    required: ['id'],
    async run({ services: open, options }) {
      const services = await open();
      const id = idOption(options.id!, 'id');
      const caller = await services.outgoingWebhooks.ownerOf('webhook', id);
      return services.outgoingWebhooks.delete(caller, { webhook_id: id });
    },
  },
  // The server's worker sends what enable and replay queue: a CLI process only writes the database.
  ...(['enable', 'disable'] as const).map((action): Command => ({
    name: `webhook ${action}`,
    usage: '--id WEBHOOK_ID',
    options: { id: text },
    required: ['id'],
    async run({ services: open, options }) {
      const services = await open();
      const id = idOption(options.id!, 'id');
      const caller = await services.outgoingWebhooks.ownerOf('webhook', id);
      return services.outgoingWebhooks.update(caller, { webhook_id: id, enabled: action === 'enable' });
    },
  })),
  {
    name: 'webhook deliveries',
    usage: '--id WEBHOOK_ID [--status pending|delivered|failed]',
    options: { id: text, status: text },
    required: ['id'],
    async run({ services: open, options }) {
      const services = await open();
      const id = idOption(options.id!, 'id');
      const caller = await services.outgoingWebhooks.ownerOf('webhook', id);
      const input = checked(ListDeliveriesBody, { webhook_id: id, status: options.status ?? '' });
      return services.outgoingWebhooks.deliveries(caller, input);
    },
  },
  {
    name: 'webhook replay',
    usage: '--delivery DELIVERY_ID',
    options: { delivery: text },
    required: ['delivery'],
    async run({ services: open, options }) {
      const services = await open();
      const id = idOption(options.delivery!, 'delivery');
      const caller = await services.outgoingWebhooks.ownerOf('delivery', id);
      return services.outgoingWebhooks.replay(caller, { delivery_id: id });
    },
  },
  {
    name: 'mcp',
    usage: '--token TOKEN',
    options: { token: text },
    required: ['token'],
    // Serves the MCP tools over stdin/stdout until the client disconnects; prints nothing itself.
    async run({ config, options }) {
      const { serveStdio } = await import('../mcp/stdio.js');
      await serveStdio(config, options.token!);
    },
  },
  {
    name: 'migrate',
    usage: '',
    options: {},
    async run({ config }) {
      const [{ openDatabase }, { migrateToLatest }] = await Promise.all([
        import('../db/connection.js'),
        import('../db/migrate.js'),
      ]);
      const { db, dialect } = openDatabase(config);
      try {
        return { applied: await migrateToLatest(db, dialect) };
      } finally {
        await db.destroy();
      }
    },
  },
  ...BACKUP_COMMANDS,
];
