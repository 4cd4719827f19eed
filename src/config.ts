import path from 'node:path';

/** Parley's configuration, read from the environment once at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  trustProxy: boolean;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was set: publicBaseUrl is the address users open, not the listener's HOST:PORT default. */
  publicBaseUrlGiven: boolean;
  whatsappGraphUrl: string;
  whatsappApiVersion: string;
  whatsappAppSecret: string | null;
  whatsappVerifyToken: string | null;
  /** Key for secrets at rest (PARLEY_ENCRYPTION_KEY); null = DATA_DIR/secret.key. */
  encryptionKey: string | null;
  /** Flow webhook nodes may call loopback and private addresses (PARLEY_ALLOW_PRIVATE_WEBHOOKS). */
  allowPrivateWebhooks: boolean;
  /** A workspace's AI model may be on loopback or the local network, over plain http too (PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS). */
  allowPrivateAiEndpoints: boolean;
  /** How long a send whose outcome is unknown waits for Meta's status before it is sent again (OUTBOX_GRACE_SECONDS). */
  outboxGraceMs: number;
  /** How long a server start waits for an unreachable database before it gives up (DATABASE_WAIT_SECONDS). */
  databaseWaitMs: number;
  /** The bearer token `GET /metrics` asks for (METRICS_TOKEN); null: no metrics endpoint. */
  metricsToken: string | null;
  logLevel: string;
  /** Where media files are kept (MEDIA_STORAGE and the S3_* variables). */
  mediaStorage: MediaStorageConfig;
  /** The SMTP server emails go through (SMTP_URL, or SMTP_HOST and the other SMTP_* variables); null: no email. */
  smtp: SmtpConfig | null;
}

/** An SMTP server, as nodemailer takes it. The password is never logged. */
export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the first byte (smtps://, port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | null;
  /** The From address, e.g. `Parley <parley@example.com>` (SMTP_FROM). */
  from: string;
}

/** The filesystem under DATA_DIR/media (the default), or an S3-compatible object store. */
export type MediaStorageConfig = { kind: 'filesystem' } | S3StorageConfig;

export interface S3StorageConfig {
  kind: 's3';
  /** S3_ENDPOINT, for MinIO, R2, B2…; null: AWS S3 itself. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** S3_PREFIX with one trailing slash, or '' (keys are `<prefix><workspace id>/<media id>`). */
  prefix: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; null: the SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Long enough that guessing it over the network is hopeless. */
const METRICS_TOKEN_MIN_LENGTH = 16;

/** Thrown with every configuration problem found, so an operator fixes them in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Reads and validates the configuration; throws ConfigError listing all problems. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const port = parsePort(text('PORT') ?? '8443', problems);
  const host = text('HOST') ?? '127.0.0.1';
  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)');
  }
  const tlsCertFile = text('TLS_CERT_FILE');
  const tlsKeyFile = text('TLS_KEY_FILE');
  if (Boolean(tlsCertFile) !== Boolean(tlsKeyFile)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicBaseUrl = (
    text('PUBLIC_BASE_URL') ?? `https://${host.includes(':') ? `[${host}]` : host}:${port}`
  ).replace(/\/+$/, '');
  if (!/^https:\/\//.test(publicBaseUrl)) problems.push('PUBLIC_BASE_URL must be an https:// URL');
  const apiVersion = text('WHATSAPP_API_VERSION') ?? 'v23.0';
  if (!/^v\d+\.\d+$/.test(apiVersion)) problems.push('WHATSAPP_API_VERSION must look like v23.0');
  const encryptionKey = text('PARLEY_ENCRYPTION_KEY');
  if (encryptionKey && Buffer.from(encryptionKey, 'base64').length !== 32) {
    problems.push('PARLEY_ENCRYPTION_KEY must be 32 bytes, base64-encoded (e.g. openssl rand -base64 32)');
  }
  const graceSeconds = Number(text('OUTBOX_GRACE_SECONDS') ?? 900);
  if (!Number.isInteger(graceSeconds) || graceSeconds < 1) {
    problems.push('OUTBOX_GRACE_SECONDS must be a whole number of seconds, at least 1');
  }
  const databaseWaitSeconds = Number(text('DATABASE_WAIT_SECONDS') ?? 120);
  if (!Number.isInteger(databaseWaitSeconds) || databaseWaitSeconds < 0) {
    problems.push('DATABASE_WAIT_SECONDS must be a whole number of seconds (0: do not wait)');
  }
  const metricsToken = text('METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < METRICS_TOKEN_MIN_LENGTH) {
    problems.push(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`);
  }
  const mediaStorage = parseMediaStorage(text, problems);
  const smtp = parseSmtp(text, problems);
  // An emailed link must open where people reach Parley, not where it listens.
  if (smtp && !text('PUBLIC_BASE_URL')) {
    problems.push('PUBLIC_BASE_URL is required with SMTP: emailed links must open the address users reach');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    host,
    port,
    dataDir: path.resolve(text('DATA_DIR') ?? './data'),
    databaseUrl,
    tlsCertFile,
    tlsKeyFile,
    trustProxy: parseFlag(text('TRUST_PROXY')),
    publicBaseUrl,
    publicBaseUrlGiven: text('PUBLIC_BASE_URL') !== null,
    whatsappGraphUrl: (text('WHATSAPP_GRAPH_URL') ?? 'https://graph.facebook.com').replace(/\/+$/, ''),
    whatsappApiVersion: apiVersion,
    whatsappAppSecret: text('WHATSAPP_APP_SECRET'),
    whatsappVerifyToken: text('WHATSAPP_VERIFY_TOKEN'),
    encryptionKey,
    allowPrivateWebhooks: parseFlag(text('PARLEY_ALLOW_PRIVATE_WEBHOOKS')),
    allowPrivateAiEndpoints: parseFlag(text('PARLEY_ALLOW_PRIVATE_AI_ENDPOINTS')),
    outboxGraceMs: graceSeconds * 1000,
    databaseWaitMs: databaseWaitSeconds * 1000,
    metricsToken,
    logLevel,
    mediaStorage,
    smtp,
  };
}

/** SMTP_URL (smtp:// or smtps://, user and password in it) or SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD; SMTP_FROM. */
function parseSmtp(text: (name: string) => string | null, problems: string[]): SmtpConfig | null {
  const url = text('SMTP_URL');
  const host = text('SMTP_HOST');
  if (!url && !host) return null;
  const from = text('SMTP_FROM');
  if (!from) problems.push('SMTP_FROM is required with SMTP (e.g. "Parley <parley@example.com>")');
  if (url && host) problems.push('SMTP_URL and SMTP_HOST are two ways to say the same: set one');
  if (url) return smtpFromUrl(url, from ?? '', problems);
  const port = Number(text('SMTP_PORT') ?? 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push('SMTP_PORT must be a port from 1 to 65535');
  const user = text('SMTP_USER');
  const pass = text('SMTP_PASSWORD');
  if (Boolean(user) !== Boolean(pass)) problems.push('SMTP_USER and SMTP_PASSWORD must be set together');
  return { host: host!, port, secure: port === 465, auth: user && pass ? { user, pass } : null, from: from ?? '' };
}

/** The URL's own text is never repeated in a problem: it may hold the password. */
function smtpFromUrl(value: string, from: string, problems: string[]): SmtpConfig | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587');
    return null;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    problems.push('SMTP_URL must start with smtp:// or smtps://');
    return null;
  }
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass } : null,
    from,
  };
}

/** MEDIA_STORAGE and, for `s3`, the S3_* variables; problems are added to the list, never thrown. */
function parseMediaStorage(text: (name: string) => string | null, problems: string[]): MediaStorageConfig {
  const kind = text('MEDIA_STORAGE') ?? 'filesystem';
  if (kind === 'filesystem') return { kind };
  if (kind !== 's3') {
    problems.push('MEDIA_STORAGE must be filesystem or s3');
    return { kind: 'filesystem' };
  }
  const endpoint = text('S3_ENDPOINT');
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) problems.push('S3_ENDPOINT must be an http:// or https:// URL');
  const region = text('S3_REGION');
  if (!region) problems.push('S3_REGION is required with MEDIA_STORAGE=s3 (R2 takes "auto")');
  const bucket = text('S3_BUCKET');
  if (!bucket) problems.push('S3_BUCKET is required with MEDIA_STORAGE=s3');
  const accessKeyId = text('S3_ACCESS_KEY_ID');
  const secretAccessKey = text('S3_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither: the AWS default chain)');
  }
  const pathStyle = (text('S3_FORCE_PATH_STYLE') ?? 'false').toLowerCase();
  if (pathStyle !== 'true' && pathStyle !== 'false') problems.push('S3_FORCE_PATH_STYLE must be true or false');
  const prefix = (text('S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  return {
    kind,
    endpoint: endpoint?.replace(/\/+$/, '') ?? null,
    region: region ?? '',
    bucket: bucket ?? '',
    prefix: prefix ? `${prefix}/` : '',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: pathStyle === 'true',
  };
}

function parsePort(value: string, problems: string[]): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${value}")`);
    return 0;
  }
  return port;
}

function parseFlag(value: string | null): boolean {
  return value !== null && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}
