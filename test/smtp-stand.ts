import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { after } from 'node:test';

/** A real SMTP server on loopback that keeps what it receives; it can be told to refuse the next sends. */
export interface SmtpStand {
  port: number;
  user: string;
  password: string;
  received: ParsedMail[];
  /** The next `count` messages are refused with a temporary failure (451), as a busy server does. */
  refuseNext(count: number): void;
}

/** Starts the `smtp-server` package on 127.0.0.1 with a login required; closed after the file's tests. */
export async function startSmtpStand(): Promise<SmtpStand> {
  const user = 'parley';
  const password = 'smtp-secret-for-tests';
  const received: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    // Loopback only: no TLS to set up, and the login allowed over plain text.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP server did not bind');
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: address.port, user, password, received, refuseNext: (count) => (refusals = count) };
}
