import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate lives; logged at start so clients can trust it. */
  certFile: string;
  generated: boolean;
}

/** Loads the configured certificate, or creates (once) a self-signed one under DATA_DIR/tls. */
export async function loadTls(config: Config): Promise<TlsMaterial> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    const [cert, key] = await Promise.all([
      fs.readFile(config.tlsCertFile, 'utf8'),
      fs.readFile(config.tlsKeyFile, 'utf8'),
    ]);
    return { cert, key, certFile: config.tlsCertFile, generated: false };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  try {
    const [cert, key] = await Promise.all([fs.readFile(certFile, 'utf8'), fs.readFile(keyFile, 'utf8')]);
    return { cert, key, certFile, generated: false };
  } catch {
    const { cert, key } = await generateSelfSigned(config.host);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(keyFile, key, { mode: 0o600 });
    await fs.writeFile(certFile, cert);
    return { cert, key, certFile, generated: true };
  }
}

/** An ECDSA P-256, SHA-256 self-signed certificate valid for localhost, the loopback addresses and `host`. */
export async function generateSelfSigned(host: string): Promise<{ cert: string; key: string }> {
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (/^[\d.]+$|:/.test(host)) {
    if (!['127.0.0.1', '::1'].includes(host)) altNames.push({ type: 7, ip: host });
  } else if (host !== 'localhost') {
    altNames.push({ type: 2, value: host });
  }
  // Loaded only when a certificate is made (the first start), not at every start.
  const { default: selfsigned } = await import('selfsigned');
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'Parley (self-signed)' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 825 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
